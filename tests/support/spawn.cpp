#include "support/spawn.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>

#include "aeval/error.hpp"
#include "cluster/run_progress.hpp"
#include "run/run_store.hpp"

namespace aeval::testing {

pid_t spawn(const std::vector<std::string>& args, const std::filesystem::path& stderr_file) {
  const pid_t pid = fork();
  if (pid == 0) {
    freopen("/dev/null", "w", stdout);
    freopen(stderr_file.empty() ? "/dev/null" : stderr_file.c_str(), stderr_file.empty() ? "w" : "a", stderr);
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

std::vector<std::filesystem::path> run_dirs(const std::filesystem::path& root) { return cluster::runs_under(root); }

std::size_t stored_samples(const std::filesystem::path& root) {
  const auto dirs = run_dirs(root);
  if (dirs.empty()) return 0;
  try {
    return pipeline::RunStore(dirs.front() / "run.sqlite").counts().stored;
  } catch (const Error&) {
    return 0;  // the database is being created
  }
}

}  // namespace aeval::testing
