#include "aeval/models/python_env.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "aeval/download.hpp"
#include "aeval/error.hpp"

namespace aeval::models {

namespace {

// Runs argv, capturing stdout and stderr together; returns (status, output).
std::pair<int, std::string> capture(const std::vector<std::string>& args) {
  int out[2];
  if (pipe2(out, O_CLOEXEC)) throw Error(ErrorCategory::model, "python environment: cannot create a pipe");
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(out[1], 2);
    execvp(argv[0], argv.data());
    _exit(127);
  }
  close(out[1]);
  std::string text;
  std::array<char, 4096> buffer;
  for (ssize_t n; (n = read(out[0], buffer.data(), buffer.size())) > 0;) text.append(buffer.data(), std::size_t(n));
  close(out[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, text};
}

std::string last_lines(const std::string& text, int count) {
  std::size_t at = text.size();
  for (int i = 0; i <= count && at != std::string::npos && at > 0; ++i) at = text.rfind('\n', at - 1);
  return text.substr(at == std::string::npos ? 0 : at + 1);
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
  const int lock = open((root / (fingerprint + ".lock")).c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock < 0 || flock(lock, LOCK_EX) != 0) throw Error(ErrorCategory::model, "python environment: cannot take its lock");
  struct Unlock {
    int fd;
    ~Unlock() { close(fd); }
  } unlock{lock};
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
                  fmt::format("installing {} failed (without network, point PIP_FIND_LINKS at a wheelhouse and set "
                              "PIP_NO_INDEX=1): {}",
                              requirements.string(), last_lines(pip_output, 3)));
    }
  }
  std::ofstream(ready) << requirements.string() << "\n" << version;
  return python;
}

}  // namespace aeval::models
