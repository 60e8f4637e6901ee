#include "models/python_env.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "util/sha256.hpp"
#include "aeval/error.hpp"
#include "util/file_lock.hpp"
#include "util/subprocess.hpp"

namespace aeval::models {

namespace {

// Runs argv to its end; returns its exit code and everything it printed.
std::pair<int, std::string> capture(const std::vector<std::string>& args) {
  const auto f = detail::run_to_end(args);
  return {WIFEXITED(f.status) ? WEXITSTATUS(f.status) : 128, f.out + f.err};
}

std::string last_lines(const std::string& text, int count) {
  std::size_t at = text.size();
  for (int i = 0; i <= count && at != std::string::npos && at > 0; ++i) at = text.rfind('\n', at - 1);
  return text.substr(at == std::string::npos ? 0 : at + 1);
}

// pip's reason on one line: its last "ERROR:" line, else its last line.
std::string pip_reason(const std::string& output) {
  std::istringstream lines(output);
  std::string last, last_error;
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    last = line;
    if (line.rfind("ERROR:", 0) == 0) last_error = line;
  }
  return last_error.empty() ? last : last_error;
}

bool has_requirements(const std::string& content) {
  std::istringstream lines(content);
  for (std::string line; std::getline(lines, line);) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first != std::string::npos && line[first] != '#') return true;
  }
  return false;
}

}  // namespace

std::filesystem::path python_environment(const std::filesystem::path& requirements) {
  std::ifstream in(requirements);
  if (!in) throw Error(ErrorCategory::config, fmt::format("{}: cannot read the requirements file", requirements.string()));
  const std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto [version_status, version] = capture({"python3", "--version"});
  if (version_status != 0) throw Error(ErrorCategory::model, "python environment: python3 is not installed");
  const std::string fingerprint = sha256_hex(content + "\n" + version).substr(0, 16);
  const auto root = cache_dir() / "venvs";
  std::filesystem::create_directories(root);
  const auto dir = root / fingerprint, ready = dir / ".aeval-ready", python = dir / "bin" / "python";

  // One builder at a time, across processes; later arrivals find it ready.
  const FileLock lock(root / (fingerprint + ".lock"));
  if (std::filesystem::exists(ready)) return python;

  std::filesystem::remove_all(dir);  // a half-built one from a killed run
  const auto [venv_status, venv_output] = capture({"python3", "-m", "venv", "--system-site-packages", dir.string()});
  if (venv_status != 0)
    throw Error(ErrorCategory::model, fmt::format("python3 -m venv failed (Debian: python3-venv): {}", last_lines(venv_output, 3)));
  if (has_requirements(content)) {
    const auto [pip_status, pip_output] =
        capture({python.string(), "-m", "pip", "install", "--no-input", "-r", std::filesystem::absolute(requirements).string()});
    if (pip_status != 0) {
      std::filesystem::remove_all(dir);
      throw Error(ErrorCategory::model,
                  fmt::format("installing {} failed ({}); without network, point PIP_FIND_LINKS at a wheelhouse "
                              "and set PIP_NO_INDEX=1",
                              requirements.lexically_normal().string(), pip_reason(pip_output)));
    }
  }
  std::ofstream(ready) << requirements.string() << "\n" << version;
  return python;
}

}  // namespace aeval::models
