#pragma once
// Files served over HTTP on a port of their own, counting the requests. Any
// other route answers 404.
#include <httplib.h>

#include <atomic>
#include <map>
#include <set>
#include <string>
#include <thread>

namespace aeval::testing {

class FileServer {
 public:
  FileServer(const std::string& route, std::string bytes);
  // route → bytes; the routes in `cut_short` announce their whole length, send a few bytes and drop the connection.
  explicit FileServer(std::map<std::string, std::string> files, const std::set<std::string>& cut_short = {});
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
