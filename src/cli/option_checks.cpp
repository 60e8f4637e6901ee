// Checks of option values that CLI11 runs while it reads the command line,
// so that a wrong value exits 2 before anything runs.
#include <charconv>
#include <cstdint>

#include "aeval/error.hpp"
#include "commands.hpp"
#include "run/shard.hpp"

namespace aeval::cli {

const CLI::Validator kSampleCount(
    [](const std::string& value) -> std::string {
      uint64_t count = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
      if (value.empty() || value.front() == '-' || value.front() == '+' || end != value.data() + value.size())
        return "must be 0 or more, not " + value;
      if (error == std::errc::result_out_of_range) return value + " is more samples than any dataset holds";
      return "";
    },
    "", "sample count");

const CLI::Validator kShard(
    [](const std::string& value) -> std::string {
      if (value == "auto") return "";
      try {
        pipeline::parse_shard(value);
        return "";
      } catch (const Error& e) {
        return e.what();
      }
    },
    "", "shard");

}  // namespace aeval::cli
