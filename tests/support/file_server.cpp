#include "support/file_server.hpp"

#include <algorithm>

namespace aeval::testing {

FileServer::FileServer(const std::string& route, std::string bytes)
    : FileServer(std::map<std::string, std::string>{{route, std::move(bytes)}}) {}

FileServer::FileServer(std::map<std::string, std::string> files, const std::set<std::string>& cut_short)
    : files_(std::move(files)) {
  for (const auto& [route, bytes] : files_)
    server_.Get(route, [this, &bytes = bytes, cut = cut_short.count(route) > 0](const httplib::Request&,
                                                                                httplib::Response& res) {
      ++requests_;
      if (!cut) return res.set_content(bytes, "application/octet-stream");
      res.set_content_provider(bytes.size(), "application/octet-stream",
                               [&bytes](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
                                 sink.write(bytes.data() + offset, std::min<std::size_t>(length, 100));
                                 return false;  // drop the connection mid-body
                               });
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
