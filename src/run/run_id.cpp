#include "run/run_id.hpp"

#include <fmt/format.h>

#include <ctime>

namespace aeval::pipeline {

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, format, &utc);
  return stamp;
}

std::string new_run_id(const std::filesystem::path& parent, const std::string& suffix) {
  const std::string base = utc_now("%Y%m%dT%H%M%SZ") + suffix;
  // Created here, so that two runs starting in the same second (side by side, or two processes)
  // never take one folder.
  std::filesystem::create_directories(parent);
  std::string id = base;
  for (int n = 2; !std::filesystem::create_directory(parent / id); ++n) id = fmt::format("{}-{}", base, n);
  return id;
}

}  // namespace aeval::pipeline
