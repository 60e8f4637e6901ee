#include "support/spawn.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "aeval/error.hpp"
#include "pipeline/run_store.hpp"

namespace aeval::testing {

pid_t spawn(const std::vector<std::string>& args) {
  const pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);
    freopen("/dev/null", "w", stderr);
    std::vector<char*> argv{const_cast<char*>(AEVAL_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(AEVAL_BINARY, argv.data());
    _exit(127);
  }
  return pid;
}

int wait_for(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

std::vector<std::filesystem::path> run_dirs(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> found;
  if (std::filesystem::exists(root))
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
      if (e.path().filename() == "run.sqlite") found.push_back(e.path().parent_path());
  std::sort(found.begin(), found.end());
  return found;
}

std::size_t stored_samples(const std::filesystem::path& root) {
  const auto dirs = run_dirs(root);
  if (dirs.empty()) return 0;
  try {
    return pipeline::RunStore(dirs.front() / "run.sqlite").samples().size();
  } catch (const Error&) {
    return 0;  // the database is being created
  }
}

}  // namespace aeval::testing
