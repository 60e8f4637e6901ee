#include "support/slurm_cluster.hpp"

#include <fcntl.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include <array>
#include <fstream>
#include <random>
#include <thread>

#include "support/run_aeval.hpp"
#include "support/temp_dir.hpp"

namespace aeval::testing {

namespace fs = std::filesystem;

namespace {

// A port nobody listens on now (the kernel's choice).
int free_port() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  socklen_t length = sizeof address;
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

std::string short_hostname() {
  std::array<char, 256> name{};
  gethostname(name.data(), name.size() - 1);
  const std::string host = name.data();
  return host.substr(0, host.find('.'));
}

std::string user_name() {
  const passwd* pw = getpwuid(getuid());
  return pw ? pw->pw_name : "root";
}

std::string capture(const std::string& command) { return run_shell(command + " 2>&1").output; }

std::string tail(const fs::path& file, std::size_t lines) {
  std::ifstream in(file);
  std::vector<std::string> all;
  for (std::string line; std::getline(in, line);) all.push_back(line);
  std::string out;
  for (std::size_t i = all.size() > lines ? all.size() - lines : 0; i < all.size(); ++i) out += "  " + all[i] + "\n";
  return out;
}

}  // namespace

bool SlurmCluster::installed() {
  for (const char* tool : {"/usr/sbin/munged", "/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/bin/sbatch"})
    if (!fs::exists(tool)) return false;
  return true;
}

void SlurmCluster::start(const std::vector<std::string>& argv, const std::string& log) {
  const pid_t pid = fork();
  if (pid == 0) {
    const int fd = open((folder_ / "log" / log).c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    setpgid(0, 0);  // the daemons leave with their own children when stopped
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  daemons_.push_back(pid);
}

SlurmCluster::SlurmCluster(const fs::path& folder) : folder_(folder) {
  for (const char* sub : {"state", "spool", "log", "munge"}) fs::create_directories(folder_ / sub);
  chmod((folder_ / "munge").c_str(), 0700);
  // munged refuses a key others could read.
  std::random_device random;
  std::string key(1024, '\0');
  for (char& c : key) c = char(random());
  const fs::path key_file = folder_ / "munge" / "munge.key";
  write_bytes(key_file, key);
  chmod(key_file.c_str(), 0400);
  const fs::path socket = folder_ / "munge" / "munge.socket";
  const std::string host = short_hostname(), user = user_name();
  const fs::path conf = folder_ / "slurm.conf";
  write_bytes(conf, fmt::format(
                        "ClusterName=aevaltest\n"
                        "SlurmctldHost={host}(127.0.0.1)\n"
                        "SlurmctldPort={ctld_port}\nSlurmdPort={d_port}\n"
                        "SlurmUser={user}\nSlurmdUser={user}\n"
                        "AuthType=auth/munge\nCredType=cred/munge\nAuthInfo=socket={socket}\n"
                        "StateSaveLocation={dir}/state\nSlurmdSpoolDir={dir}/spool\n"
                        "SlurmctldPidFile={dir}/slurmctld.pid\nSlurmdPidFile={dir}/slurmd.pid\n"
                        "SlurmctldLogFile={dir}/log/slurmctld.log\nSlurmdLogFile={dir}/log/slurmd.log\n"
                        // No cgroups in a test machine: processes tracked by their parents, tasks not bound.
                        "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\n"
                        "JobAcctGatherType=jobacct_gather/none\nAccountingStorageType=accounting_storage/none\n"
                        "SelectType=select/cons_tres\nSelectTypeParameters=CR_CPU\n"
                        "MpiDefault=none\nSwitchType=switch/none\nReturnToService=2\n"
                        "SchedulerType=sched/backfill\nSchedulerParameters=sched_min_interval=100000\n"
                        "NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN\n"
                        "PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n",
                        fmt::arg("host", host), fmt::arg("ctld_port", free_port()), fmt::arg("d_port", free_port()),
                        fmt::arg("user", user), fmt::arg("socket", socket.string()), fmt::arg("dir", folder_.string()),
                        fmt::arg("cpus", std::max(1u, std::thread::hardware_concurrency()))));
  conf_env_.emplace("SLURM_CONF", conf.c_str());

  start({"/usr/sbin/munged", "--foreground", "--force", "--socket=" + socket.string(), "--key-file=" + key_file.string(),
         "--log-file=" + (folder_ / "log" / "munged.log").string(),
         "--pid-file=" + (folder_ / "munge" / "munged.pid").string(),
         "--seed-file=" + (folder_ / "munge" / "munged.seed").string()},
        "munged.out");
  for (int i = 0; i < 100 && !fs::exists(socket); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  start({"/usr/sbin/slurmctld", "-D", "-c", "-f", conf.string()}, "slurmctld.out");
  start({"/usr/sbin/slurmd", "-D", "-N", host, "-f", conf.string()}, "slurmd.out");
  for (int i = 0; i < 120; ++i) {
    const std::string state = capture("sinfo --noheader --format=%t");
    if (state.rfind("idle", 0) == 0) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  why_not_ = "the one-node Slurm cluster did not come up within 60 s (sinfo: " +
             capture("sinfo --noheader --format='%t %E'") + ")\n" + logs();
}

SlurmCluster::~SlurmCluster() {
  capture("scancel --user=" + user_name());
  wait_until_idle(std::chrono::seconds(20));
  // slurmd and slurmctld first, munged (which they ask) last.
  for (auto it = daemons_.rbegin(); it != daemons_.rend(); ++it) {
    kill(-*it, SIGTERM);
    for (int i = 0; i < 100 && waitpid(*it, nullptr, WNOHANG) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    kill(-*it, SIGKILL);
    waitpid(*it, nullptr, WNOHANG);
  }
}

std::string SlurmCluster::queue() const { return capture("squeue --noheader --array --format='%i %T'"); }

bool SlurmCluster::wait_until_idle(std::chrono::seconds timeout) const {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < end) {
    if (queue().find_first_not_of(" \n") == std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return false;
}

std::string SlurmCluster::logs() const {
  std::string out;
  for (const char* log : {"munged.out", "munged.log", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"})
    if (fs::exists(folder_ / "log" / log)) out += fmt::format("{}:\n{}", log, tail(folder_ / "log" / log, 15));
  return out;
}

}  // namespace aeval::testing
