#pragma once
// Files served over HTTP on a port of their own, counting the requests.
#include <httplib.h>

#include <atomic>
#include <map>
#include <string>
#include <thread>

namespace aeval::testing {

class FileServer {
 public:
  FileServer(const std::string& route, std::string bytes);
  explicit FileServer(std::map<std::string, std::string> files);  // route → bytes
  ~FileServer();
  std::string url(const std::string& route) const;
  int requests() const { return requests_; }

 private:
  std::map<std::string, std::string> files_;
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<int> requests_{0};
};

}  // namespace aeval::testing
