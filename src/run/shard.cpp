#include "run/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <stdexcept>

#include "aeval/error.hpp"

namespace aeval::pipeline {

using datasets::Dataset;

namespace {

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

// A Slurm job array's own index and size: the array must be 0..N-1 (step 1), as `aeval submit slurm` makes it,
// for the task's index to be its shard.
Shard slurm_array_shard() {
  const auto number = [](const char* name) -> std::optional<long> {
    const char* value = std::getenv(name);
    if (!value || !*value) return std::nullopt;
    char* end = nullptr;
    const long n = std::strtol(value, &end, 10);
    if (*end) throw Error(ErrorCategory::config, fmt::format("--shard auto: {}='{}' is not a number", name, value));
    return n;
  };
  const auto id = number("SLURM_ARRAY_TASK_ID"), count = number("SLURM_ARRAY_TASK_COUNT");
  if (!id || !count)
    throw Error(ErrorCategory::config,
                "--shard auto reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT, which are not set: it is meant "
                "for a task of a Slurm job array (sbatch --array=0-N-1); elsewhere give --shard I/N");
  const auto min = number("SLURM_ARRAY_TASK_MIN"), max = number("SLURM_ARRAY_TASK_MAX"),
             step = number("SLURM_ARRAY_TASK_STEP");
  if ((min && *min != 0) || (max && *max != *count - 1) || (step && *step != 1))
    throw Error(ErrorCategory::config,
                fmt::format("--shard auto needs a job array of indices 0-{} (step 1), but this one runs {}-{} step {}, "
                            "so its indices are not shards; give --shard {}/N with the number of shards",
                            *count - 1, min.value_or(0), max.value_or(*count - 1), step.value_or(1), *id));
  return Shard{int(*id), int(*count)};
}

}  // namespace

Shard parse_shard(const std::string& text) {
  if (text == "auto") return slurm_array_shard();
  Shard s;
  const auto slash = text.find('/');
  try {
    if (slash == std::string::npos) throw std::invalid_argument("no slash");
    std::size_t used = 0;
    s.index = std::stoi(text.substr(0, slash), &used);
    if (used != slash) throw std::invalid_argument("index");
    s.count = std::stoi(text.substr(slash + 1), &used);
    if (used != text.size() - slash - 1) throw std::invalid_argument("count");
  } catch (const std::exception&) {
    throw Error(ErrorCategory::config, fmt::format("'{}' is no shard: give I/N, for example 0/4", text));
  }
  if (s.count < 1 || s.index < 0 || s.index >= s.count)
    throw Error(ErrorCategory::config, fmt::format("'{}' is no shard: I/N needs 0 <= I < N", text));
  return s;
}

Positions select_positions(const Dataset& d, const Invocation& inv) {
  Positions out;
  const std::size_t n = inv.limit ? std::min(inv.limit, d.samples.size()) : d.samples.size();
  if (n > std::numeric_limits<Positions::value_type>::max())
    throw Error(ErrorCategory::data, fmt::format("a run covers fewer than 2^32 samples; this one would cover {} (run it "
                                                 "in shards or with --limit)", n));
  for (std::size_t i = 0; i < n; ++i)
    if (inv.shard.count == 1 || fnv1a(d.samples.id(i)) % std::uint64_t(inv.shard.count) == std::uint64_t(inv.shard.index))
      out.push_back(Positions::value_type(i));
  return out;
}

}  // namespace aeval::pipeline
