#pragma once
// A real headless browser (Debian's Chromium) for end-to-end tests of what
// aeval serves or writes as HTML, and `aeval view` running as a server.
#include <sys/types.h>

#include <array>
#include <filesystem>
#include <nlohmann/json.hpp>
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

// Whether tests/support/cdp_driver.py can drive Chromium over the DevTools protocol: Chromium and
// Debian's python3-websockets installed; empty when so, else what is missing.
std::string cdp_driver_missing();

// Runs `steps` (cdp_driver.py's script: navigate, viewport, eval, wait, click, text, screenshot, requests)
// in a fresh headless Chromium; its answer: {"results": [one per step], "exceptions": [...]}, and "error"
// and "step" where a step failed. `work_dir` receives the script.
nlohmann::json drive_browser(const nlohmann::json& steps, const std::filesystem::path& work_dir);

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
