#include "audio/absent_audio.hpp"

#include <map>
#include <mutex>

namespace aeval::detail {

namespace {

struct AbsentAudio {
  std::mutex mutex;
  std::map<std::filesystem::path, std::string> reasons;
};
AbsentAudio& absent_audio() {
  static AbsentAudio absent;
  return absent;
}

}  // namespace

void record_absent_audio(const std::filesystem::path& file, const std::string& reason) {
  const std::lock_guard lock(absent_audio().mutex);
  absent_audio().reasons[file] = reason;
}

std::optional<std::string> absent_audio_reason(const std::filesystem::path& file) {
  const std::lock_guard lock(absent_audio().mutex);
  const auto found = absent_audio().reasons.find(file);
  if (found == absent_audio().reasons.end()) return std::nullopt;
  return found->second;
}

}  // namespace aeval::detail
