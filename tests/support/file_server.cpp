#include "support/file_server.hpp"

namespace aeval::testing {

FileServer::FileServer(const std::string& route, std::string bytes)
    : FileServer(std::map<std::string, std::string>{{route, std::move(bytes)}}) {}

FileServer::FileServer(std::map<std::string, std::string> files) : files_(std::move(files)) {
  for (const auto& [route, bytes] : files_)
    server_.Get(route, [this, &bytes = bytes](const httplib::Request&, httplib::Response& res) {
      ++requests_;
      res.set_content(bytes, "application/octet-stream");
    });
  port_ = server_.bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_.listen_after_bind(); });
  while (!server_.is_running()) std::this_thread::yield();
}

FileServer::~FileServer() {
  server_.stop();
  thread_.join();
}

std::string FileServer::url(const std::string& route) const {
  return "http://127.0.0.1:" + std::to_string(port_) + route;
}

}  // namespace aeval::testing
