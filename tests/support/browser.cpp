#include "support/browser.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <regex>
#include <stdexcept>

#include "util/subprocess.hpp"

namespace aeval::testing {

std::filesystem::path chromium() {
  for (const char* p : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (std::filesystem::exists(p)) return p;
  return {};
}

namespace {

std::string run_chromium(const std::vector<std::string>& args, const std::filesystem::path& profile_dir) {
  std::vector<std::string> argv = {chromium().string(), "--headless", "--no-sandbox", "--disable-gpu",
                                   "--disable-dev-shm-usage", "--user-data-dir=" + profile_dir.string(),
                                   // Time runs virtually until the page's fetches and scripts are done.
                                   "--virtual-time-budget=30000"};
  argv.insert(argv.end(), args.begin(), args.end());
  const auto browser = detail::run_to_end(argv);
  if (browser.status != 0) throw std::runtime_error("chromium failed: " + browser.err);
  return browser.out;
}

}  // namespace

std::string dump_dom(const std::string& url, const std::filesystem::path& profile_dir) {
  std::string dom = run_chromium({"--dump-dom", url}, profile_dir);
  // Without the scripts' text, which spells out the markup they build.
  for (std::size_t at; (at = dom.find("<script")) != std::string::npos;) {
    const std::size_t end = dom.find("</script>", at);
    dom.erase(at, end == std::string::npos ? std::string::npos : end + 9 - at);
  }
  return dom;
}

void screenshot(const std::string& url, const std::filesystem::path& png, const std::filesystem::path& profile_dir,
                int width, int height) {
  run_chromium({"--hide-scrollbars", "--window-size=" + std::to_string(width) + "," + std::to_string(height),
                "--screenshot=" + png.string(), url},
               profile_dir);
}

std::string cdp_driver_missing() {
  if (chromium().empty()) return "chromium";
  if (detail::run_to_end({"/usr/bin/python3", "-c", "import websockets"}).status != 0) return "python3-websockets";
  return "";
}

nlohmann::json drive_browser(const nlohmann::json& steps, const std::filesystem::path& work_dir) {
  static int scripts = 0;
  const auto script = work_dir / ("cdp-script-" + std::to_string(++scripts) + ".json");
  std::ofstream(script) << nlohmann::json{{"steps", steps}}.dump();
  const auto driver = detail::run_to_end(
      {"/usr/bin/python3", std::string(AEVAL_SOURCE_DIR) + "/tests/support/cdp_driver.py", script.string()});
  auto answer = nlohmann::json::parse(driver.out, nullptr, false);
  if (!answer.is_object()) return {{"error", "cdp_driver.py: " + driver.out + driver.err}, {"step", -1}};
  return answer;
}

ViewServer::ViewServer(const std::filesystem::path& results) {
  const auto child = detail::spawn({AEVAL_BINARY, "view", results.string(), "--port", "0"});
  pid_ = child.pid;
  fds_ = {child.stdin_fd, child.stdout_fd, child.stderr_fd};  // open while it runs: a write to a closed pipe would end it
  // Its first line names the address, printed once it listens.
  std::string line;
  char c;
  while (read(child.stdout_fd, &c, 1) == 1 && c != '\n') line += c;
  std::smatch m;
  if (!std::regex_search(line, m, std::regex(R"(http://127\.0\.0\.1:\d+/)"))) {
    stop();
    throw std::runtime_error("aeval view did not say where it listens: '" + line + "'");
  }
  url_ = m.str();
}

ViewServer::~ViewServer() { stop(); }

void ViewServer::stop() {
  if (pid_ < 0) return;
  kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
  for (const int fd : fds_) close(fd);
  pid_ = -1;
}

int ViewServer::port() const { return std::stoi(url_.substr(url_.rfind(':') + 1)); }

}  // namespace aeval::testing
