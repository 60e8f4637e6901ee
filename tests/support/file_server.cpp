#include "support/file_server.hpp"

namespace aeval::testing {

FileServer::FileServer(const std::string& route, std::string bytes) : bytes_(std::move(bytes)) {
  server_.Get(route, [this](const httplib::Request&, httplib::Response& res) {
    ++requests_;
    res.set_content(bytes_, "application/octet-stream");
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
