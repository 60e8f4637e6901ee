#pragma once
// A real one-node Slurm cluster on localhost for the tests: Debian's munged,
// slurmctld and slurmd, run in the foreground from a folder of their own with
// a generated slurm.conf (free ports, no cgroups, no accounting), and stopped
// with every job when the cluster object goes. Slurm's client commands find it
// through SLURM_CONF, which the cluster sets while it lives.
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "support/scoped_env.hpp"

namespace aeval::testing {

class SlurmCluster {
 public:
  // Starts the daemons in `folder` and waits until the node is idle.
  explicit SlurmCluster(const std::filesystem::path& folder);
  ~SlurmCluster();
  SlurmCluster(const SlurmCluster&) = delete;
  SlurmCluster& operator=(const SlurmCluster&) = delete;

  // Whether the node came up; when not, why_not() says why, with the daemons' own log lines.
  bool up() const { return why_not_.empty(); }
  const std::string& why_not() const { return why_not_; }

  // Slurm's client commands installed (sbatch, squeue, ...) and the daemons: false means skip outside CI.
  static bool installed();

  // The queue's jobs, one "JOBID_INDEX STATE" line each (array tasks expanded).
  std::string queue() const;
  // Waits until no job is left in the queue, or `timeout` passes; true when it emptied.
  bool wait_until_idle(std::chrono::seconds timeout) const;
  // The daemons' logs, for a failure message.
  std::string logs() const;

 private:
  void start(const std::vector<std::string>& argv, const std::string& log);
  std::filesystem::path folder_;
  std::vector<pid_t> daemons_;
  std::optional<ScopedEnv> conf_env_;
  std::string why_not_;
};

}  // namespace aeval::testing
