#include "pipeline/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "aeval/error.hpp"

namespace aeval::pipeline {

namespace {

std::uint64_t fnv1a(const std::string& s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char ch : s) h = (h ^ ch) * 1099511628211ull;
  return h;
}

}  // namespace

Shard parse_shard(const std::string& text) {
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
    throw Error(ErrorCategory::config, fmt::format("--shard '{}' must be I/N, for example 0/4", text));
  }
  if (s.count < 1 || s.index < 0 || s.index >= s.count)
    throw Error(ErrorCategory::config, fmt::format("--shard '{}': need 0 <= I < N", text));
  return s;
}

std::vector<std::size_t> select_positions(const Dataset& d, const Invocation& inv) {
  std::vector<std::size_t> out;
  const std::size_t n = inv.limit ? std::min(inv.limit, d.samples.size()) : d.samples.size();
  for (std::size_t i = 0; i < n; ++i)
    if (inv.shard.count == 1 || fnv1a(d.samples[i].id) % std::uint64_t(inv.shard.count) == std::uint64_t(inv.shard.index))
      out.push_back(i);
  return out;
}

}  // namespace aeval::pipeline
