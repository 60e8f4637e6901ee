#include "util/subprocess.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "aeval/error.hpp"

namespace aeval::detail {

Child spawn(const std::vector<std::string>& args, const std::filesystem::path& working_dir) {
  // A child that exits before reading all its input must not take aeval down with SIGPIPE when
  // aeval writes to the closed pipe: the write fails with EPIPE and the child's status says why.
  static const bool sigpipe_ignored = [] { return signal(SIGPIPE, SIG_IGN) != SIG_ERR; }();
  (void)sigpipe_ignored;
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
    throw Error(ErrorCategory::model, "cannot create pipes for " + args.at(0));
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = fork();
  if (pid < 0) throw Error(ErrorCategory::model, "cannot fork to run " + args.at(0));
  if (pid == 0) {
    // Only async-signal-safe calls between fork and exec.
    const auto say = [](const char* a, const char* b) {
      (void)!write(2, a, std::strlen(a));
      (void)!write(2, b, std::strlen(b));
      (void)!write(2, "\n", 1);
    };
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    if (!working_dir.empty() && chdir(working_dir.c_str()) != 0) {
      say("cannot enter ", working_dir.c_str());
      _exit(127);
    }
    execvp(argv[0], argv.data());
    say("cannot run ", argv[0]);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  return {pid, in[1], out[0], err[0]};
}

Finished run_to_end(const std::vector<std::string>& argv, const std::string& input) {
  Child c = spawn(argv);
  for (std::size_t done = 0; done < input.size();) {
    const ssize_t n = write(c.stdin_fd, input.data() + done, input.size() - done);
    if (n <= 0) break;  // it stopped reading; its status will say why
    done += std::size_t(n);
  }
  close(c.stdin_fd);
  // Both pipes at once: a child blocked on a full stderr must not wait for us to drain stdout.
  Finished f;
  pollfd fds[2] = {{c.stdout_fd, POLLIN, 0}, {c.stderr_fd, POLLIN, 0}};
  std::string* sinks[2] = {&f.out, &f.err};
  char buffer[4096];
  for (int open = 2; open > 0;) {
    if (poll(fds, 2, -1) < 0) break;
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[k].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[k]->append(buffer, std::size_t(n));
      } else {
        close(fds[k].fd);
        fds[k].fd = -1;
        --open;
      }
    }
  }
  waitpid(c.pid, &f.status, 0);
  return f;
}

}  // namespace aeval::detail
