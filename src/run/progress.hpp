#pragma once
// Progress of a long run: a redrawn bar with rate and ETA on a terminal,
// plain periodic lines otherwise (logs, CI).
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>

namespace aeval::pipeline {

class Progress {
 public:
  Progress(std::string label, std::size_t total, std::FILE* out);  // out nullptr: silent
  // `detail`: per-stage counts appended in parentheses ("12 cached, failed at audio: 1").
  void update(std::size_t done, std::size_t failed, const std::string& detail = "");
  void finish(std::size_t done, std::size_t failed, const std::string& detail = "");

 private:
  std::string line(std::size_t done, std::size_t failed, const std::string& detail) const;

  std::string label_;
  std::size_t total_;
  std::FILE* out_;
  bool terminal_;
  std::chrono::steady_clock::time_point start_, last_print_;
  std::size_t last_decile_ = 0;
};

}  // namespace aeval::pipeline
