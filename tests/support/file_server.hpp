#pragma once
// One file served over HTTP on a port of its own, counting the requests.
#include <httplib.h>

#include <atomic>
#include <string>
#include <thread>

namespace aeval::testing {

class FileServer {
 public:
  FileServer(const std::string& route, std::string bytes);
  ~FileServer();
  std::string url(const std::string& route) const;
  int requests() const { return requests_; }

 private:
  std::string bytes_;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<int> requests_{0};
};

}  // namespace aeval::testing
