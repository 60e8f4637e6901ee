#pragma once
// What decoding libraries print about a file (mpg123's notes on a damaged
// MP3, FFmpeg's errors) belongs with the run that read it, not on the
// terminal among aeval's own lines. A run installs a sink for the time it
// runs (its run.log); with none installed, mpg123 prints as it always did
// and FFmpeg stays quiet.
#include <filesystem>
#include <cstdint>
#include <functional>
#include <string>

namespace aeval::detail {

// library: "mpg123" or "ffmpeg"; message: one line, without its newline.
using DecoderMessageSink =
    std::function<void(const std::filesystem::path& file, const std::string& library, const std::string& message)>;

// Installs a sink while alive. Several may be installed at once (runs side by side): each gets every
// message, since a decoding library does not say which run's file it is reading.
class ScopedDecoderMessageSink {
 public:
  explicit ScopedDecoderMessageSink(DecoderMessageSink sink);
  ~ScopedDecoderMessageSink();
  ScopedDecoderMessageSink(const ScopedDecoderMessageSink&) = delete;
  ScopedDecoderMessageSink& operator=(const ScopedDecoderMessageSink&) = delete;

 private:
  std::uint64_t id_;
};

// Sends one message to the installed sinks, if any.
void decoder_message(const std::filesystem::path& file, const std::string& library, const std::string& message);
bool has_decoder_message_sink();

// While alive, and while a sink is installed, what the process writes to its
// standard error (file descriptor 2) is captured; on destruction each line
// goes to the sink as `library`'s message about `file`. mpg123 writes straight
// to stderr, with no option libsndfile passes on to silence it. Captures are
// serialized, so keep them to the calls that need them.
class CapturedStderr {
 public:
  CapturedStderr(std::filesystem::path file, std::string library);
  ~CapturedStderr();
  CapturedStderr(const CapturedStderr&) = delete;
  CapturedStderr& operator=(const CapturedStderr&) = delete;

 private:
  std::filesystem::path file_;
  std::string library_;
  int saved_ = -1, capture_ = -1;
};

}  // namespace aeval::detail
