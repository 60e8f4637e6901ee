#pragma once
// While a run goes on, Ctrl-C (or a TERM) says on stderr how to continue it before the process ends as it would
// have: the command line's own, not the library's (a Python host keeps its KeyboardInterrupt).
#include <filesystem>
#include <memory>

#include "aeval/pipeline/run_types.hpp"

namespace aeval::cli {

class InterruptHint {
 public:
  explicit InterruptHint(const std::filesystem::path& run_dir);
  ~InterruptHint();
  InterruptHint(const InterruptHint&) = delete;
  InterruptHint& operator=(const InterruptHint&) = delete;
};

// Has `options` print the run's folder on stderr as soon as it is known (unless quiet) and arm `hint` for it, which
// then lives as long as the caller keeps it.
void announce_run_folder(pipeline::RunOptions& options, std::unique_ptr<InterruptHint>& hint, bool quiet);

}  // namespace aeval::cli
