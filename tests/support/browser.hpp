#pragma once
// A real headless browser (Debian's Chromium) for end-to-end tests of what
// aeval serves or writes as HTML, and `aeval view` running as a server.
#include <sys/types.h>

#include <array>
#include <filesystem>
#include <string>

namespace aeval::testing {

// Chromium's path; empty when it is not installed.
std::filesystem::path chromium();

// The DOM Chromium builds for `url` once its scripts have run (and fetched what they fetch), less
// the <script> elements.
std::string dump_dom(const std::string& url, const std::filesystem::path& profile_dir);

// Saves a PNG of `url` as Chromium renders it at the given size (the screenshots in docs/).
void screenshot(const std::string& url, const std::filesystem::path& png, const std::filesystem::path& profile_dir,
                int width = 1280, int height = 900);

// `aeval view RESULTS --port 0` as a child process, stopped when this goes.
class ViewServer {
 public:
  explicit ViewServer(const std::filesystem::path& results);
  ~ViewServer();
  ViewServer(const ViewServer&) = delete;
  ViewServer& operator=(const ViewServer&) = delete;
  const std::string& url() const { return url_; }  // http://127.0.0.1:PORT/
  int port() const;

 private:
  void stop();
  pid_t pid_ = -1;
  std::array<int, 3> fds_{-1, -1, -1};
  std::string url_;
};

}  // namespace aeval::testing
