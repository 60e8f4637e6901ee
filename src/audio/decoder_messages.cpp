#include "audio/decoder_messages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <map>
#include <mutex>

namespace aeval::detail {

namespace {

std::mutex& sink_mutex() {
  static std::mutex m;
  return m;
}

std::map<std::uint64_t, DecoderMessageSink>& installed() {
  static std::map<std::uint64_t, DecoderMessageSink> sinks;
  return sinks;
}

// One capture at a time: file descriptor 2 is the process's, not a thread's.
std::mutex& capture_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

ScopedDecoderMessageSink::ScopedDecoderMessageSink(DecoderMessageSink sink) {
  static std::uint64_t next = 0;
  const std::lock_guard lock(sink_mutex());
  id_ = next++;
  if (sink) installed().emplace(id_, std::move(sink));
}

ScopedDecoderMessageSink::~ScopedDecoderMessageSink() {
  const std::lock_guard lock(sink_mutex());
  installed().erase(id_);
}

bool has_decoder_message_sink() {
  const std::lock_guard lock(sink_mutex());
  return !installed().empty();
}

void decoder_message(const std::filesystem::path& file, const std::string& library, const std::string& message) {
  const std::lock_guard lock(sink_mutex());
  for (const auto& [id, sink] : installed()) sink(file, library, message);
}

CapturedStderr::CapturedStderr(std::filesystem::path file, std::string library)
    : file_(std::move(file)), library_(std::move(library)) {
  if (!has_decoder_message_sink()) return;
  capture_mutex().lock();
  std::fflush(stderr);
  capture_ = memfd_create("aeval-decoder-messages", MFD_CLOEXEC);
  saved_ = capture_ < 0 ? -1 : dup(STDERR_FILENO);
  if (saved_ < 0 || dup2(capture_, STDERR_FILENO) < 0) {  // cannot capture: the messages stay on stderr
    if (saved_ >= 0) close(saved_);
    if (capture_ >= 0) close(capture_);
    saved_ = capture_ = -1;
    capture_mutex().unlock();
  }
}

CapturedStderr::~CapturedStderr() {
  if (capture_ < 0) return;
  std::fflush(stderr);
  dup2(saved_, STDERR_FILENO);
  close(saved_);
  std::string text;
  char buffer[4096];
  ssize_t got = 0;
  for (off_t at = 0; (got = pread(capture_, buffer, sizeof buffer, at)) > 0; at += got) text.append(buffer, std::size_t(got));
  close(capture_);
  capture_mutex().unlock();
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) decoder_message(file_, library_, text.substr(start, end - start));
    start = end + 1;
  }
}

}  // namespace aeval::detail
