#pragma once
// Child processes without a shell: argv is executed directly (execvp), so
// no text from a dataset can become a command. Used by the process models,
// espeak-ng and the Python environment builder.
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace aeval::detail {

struct Child {
  pid_t pid = -1;
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1;  // the parent's ends
};

// Starts argv with pipes on stdin, stdout and stderr (in `working_dir` when
// given). If it cannot be executed, the child writes "cannot run <argv0>" to
// its stderr and exits with status 127.
Child spawn(const std::vector<std::string>& argv, const std::filesystem::path& working_dir = {});

struct Finished {
  int status = 0;  // waitpid status
  std::string out, err;
};

// Runs argv to completion with `input` on its stdin, collecting its output.
Finished run_to_end(const std::vector<std::string>& argv, const std::string& input = "");

}  // namespace aeval::detail
