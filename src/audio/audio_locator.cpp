#include "audio/audio_locator.hpp"

#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "aeval/error.hpp"

namespace aeval::detail {

namespace {

struct ClipReaders {
  std::mutex mutex;
  std::map<std::string, ClipReader> by_extension;
};
ClipReaders& clip_readers() {
  static ClipReaders readers;
  return readers;
}

std::string lowercase(std::string text) {
  for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::optional<double> seconds(const std::string& text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !(value >= 0)) return std::nullopt;
  return value;
}

}  // namespace

AudioLocator parse_audio_locator(const std::filesystem::path& locator) {
  std::error_code error;
  const std::string text = locator.string();
  const auto hash = text.rfind('#');
  if (hash == std::string::npos || std::filesystem::is_regular_file(locator, error)) return {locator, "", {}, {}};
  AudioLocator parsed{text.substr(0, hash), text.substr(hash + 1), {}, {}};
  if (parsed.fragment.rfind("t=", 0) == 0) {  // t=START,END or t=START
    const std::string range = parsed.fragment.substr(2);
    const auto comma = range.find(',');
    parsed.start = seconds(range.substr(0, comma));
    if (comma != std::string::npos) parsed.end = seconds(range.substr(comma + 1));
    if (!parsed.start || (comma != std::string::npos && (!parsed.end || *parsed.end <= *parsed.start)))
      throw Error(ErrorCategory::audio, text + ": the time range must read t=START,END in seconds with START < END");
    return parsed;
  }
  const std::lock_guard lock(clip_readers().mutex);
  if (!clip_readers().by_extension.count(lowercase(parsed.file.extension().string())))
    throw Error(ErrorCategory::audio, text + ": no such file (and '#" + parsed.fragment +
                                          "' is neither a time range t=START,END nor a clip of a Parquet file)");
  return parsed;
}

void register_clip_reader(const std::string& extension, ClipReader reader) {
  const std::lock_guard lock(clip_readers().mutex);
  clip_readers().by_extension[lowercase(extension)] = std::move(reader);
}

AudioBytes read_locator_bytes(const AudioLocator& locator) {
  if (!locator.fragment.empty() && !locator.start) {
    ClipReader reader;
    {
      const std::lock_guard lock(clip_readers().mutex);
      reader = clip_readers().by_extension.at(lowercase(locator.file.extension().string()));
    }
    AudioBytes bytes = reader(locator.file, locator.fragment);
    if (!bytes || bytes->empty())
      throw Error(ErrorCategory::audio, locator.file.string() + "#" + locator.fragment + ": no audio bytes stored");
    return bytes;
  }
  const std::string name = locator.file.string();
  std::error_code error;
  const auto status = std::filesystem::status(locator.file, error);
  if (error || !std::filesystem::exists(status)) throw Error(ErrorCategory::audio, name + ": no such file");
  if (!std::filesystem::is_regular_file(status)) throw Error(ErrorCategory::audio, name + ": not a regular file");
  std::ifstream in(locator.file, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (!in) throw Error(ErrorCategory::audio, name + ": cannot read");
  if (bytes.view().empty()) throw Error(ErrorCategory::audio, name + ": empty file");
  return std::make_shared<const std::string>(std::move(bytes).str());
}

}  // namespace aeval::detail
