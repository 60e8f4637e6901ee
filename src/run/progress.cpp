#include "run/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace aeval::pipeline {

namespace {
std::string clock_time(double seconds) {
  const long s = long(seconds + 0.5);
  return fmt::format("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60);
}
}  // namespace

Progress::Progress(std::string label, std::size_t total, std::FILE* out)
    : label_(std::move(label)), total_(total), out_(out), terminal_(out && isatty(fileno(out)) != 0),
      start_(std::chrono::steady_clock::now()), last_print_(start_) {}

std::string Progress::line(std::size_t done, std::size_t failed, const std::string& detail) const {
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? double(done) / elapsed : 0.0;
  const std::string eta = rate > 0 && done < total_ ? clock_time(double(total_ - done) / rate) : "-";
  const double fraction = total_ ? double(done) / double(total_) : 1.0;
  std::string text = fmt::format("{} {}/{} ({:.0f}%) {:.1f} samples/s, elapsed {}, ETA {}", label_, done, total_,
                                 100 * fraction, rate, clock_time(elapsed), eta);
  if (failed) text += fmt::format(", {} failed", failed);
  if (!detail.empty()) text += " (" + detail + ")";
  if (terminal_) {
    constexpr int kWidth = 24;
    const int filled = int(fraction * kWidth);
    text = fmt::format("[{:#<{}}{:.<{}}] {}", "", filled, "", kWidth - filled, text);
  }
  return text;
}

void Progress::update(std::size_t done, std::size_t failed, const std::string& detail) {
  if (!out_) return;
  const auto now = std::chrono::steady_clock::now();
  if (terminal_) {
    if (now - last_print_ < std::chrono::milliseconds(100) && done < total_) return;
    std::fprintf(out_, "\r\033[K%s", line(done, failed, detail).c_str());
  } else {
    // One line per tenth of the work, or every 30 s when samples are slow.
    const std::size_t decile = total_ ? done * 10 / total_ : 10;
    if (decile == last_decile_ && now - last_print_ < std::chrono::seconds(30)) return;
    last_decile_ = decile;
    std::fprintf(out_, "%s\n", line(done, failed, detail).c_str());
  }
  std::fflush(out_);
  last_print_ = now;
}

void Progress::finish(std::size_t done, std::size_t failed, const std::string& detail) {
  if (!out_) return;
  if (terminal_) {
    std::fprintf(out_, "\r\033[K%s\n", line(done, failed, detail).c_str());
  } else if (last_decile_ != 10) {
    std::fprintf(out_, "%s\n", line(done, failed, detail).c_str());
  }
  std::fflush(out_);
}

}  // namespace aeval::pipeline
