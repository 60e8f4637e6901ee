#include "support/openai_test_server.hpp"

#include <dirent.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <chrono>

#include "util/base64.hpp"

namespace aeval::testing {

namespace {

// Debian's cpp-httplib is a shared library built to listen with a backlog of
// 5: a client opening dozens of connections at once (as aeval does) would see
// SYNs dropped and retried a second later. Real servers queue thousands;
// listen() again on the listening socket of `port` widens the queue.
void widen_backlog(int port) {
  DIR* fds = opendir("/proc/self/fd");
  if (!fds) return;
  while (const dirent* entry = readdir(fds)) {
    const int fd = std::atoi(entry->d_name);
    sockaddr_in address{};
    socklen_t size = sizeof address;
    int listening = 0;
    socklen_t flag_size = sizeof listening;
    if (fd > 2 && getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0 && address.sin_family == AF_INET &&
        ntohs(address.sin_port) == port && getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &flag_size) == 0 &&
        listening)
      ::listen(fd, 1024);
  }
  closedir(fds);
}

// A chat answer as server-sent events: the text (or the spoken answer's base64 and transcript)
// in three deltas each, then [DONE].
std::string streamed(const ScriptedReply& reply) {
  const auto thirds = [](const std::string& s) {
    const std::size_t n = s.size() / 3;
    return std::vector<std::string>{s.substr(0, n), s.substr(n, n), s.substr(2 * n)};
  };
  std::string events;
  const auto event = [&](const nlohmann::json& delta) {
    events += "data: " +
              nlohmann::json{{"id", "test"}, {"object", "chat.completion.chunk"},
                             {"choices", {{{"index", 0}, {"delta", delta}}}}}
                  .dump() +
              "\n\n";
  };
  event({{"role", "assistant"}});
  if (reply.audio.empty()) {
    for (const auto& piece : thirds(reply.text)) event({{"content", piece}});
  } else {
    const auto data = thirds(util::base64(reply.audio)), transcript = thirds(reply.text);
    for (std::size_t k = 0; k < 3; ++k) event({{"audio", {{"id", "audio-1"}, {"data", data[k]}, {"transcript", transcript[k]}}}});
  }
  return events + "data: [DONE]\n\n";
}

}  // namespace

OpenAiTestServer::OpenAiTestServer(Script script) : script_(std::move(script)), server_(std::make_unique<httplib::Server>()) {
  // Enough worker threads for the concurrency tests.
  server_->new_task_queue = [] { return new httplib::ThreadPool(160); };
  // Idle keep-alive connections hold stop() until they time out: keep that short.
  server_->set_keep_alive_timeout(1);
  server_->set_tcp_nodelay(true);
  const auto handle = [this](const httplib::Request& req, httplib::Response& res) {
    ReceivedRequest r;
    r.path = req.path;
    r.authorization = req.get_header_value("Authorization");
    if (req.is_multipart_form_data()) {
      r.body = nlohmann::json::object();
      for (const auto& [name, file] : req.files) {
        if (file.filename.empty()) r.body[name] = file.content;
        else r.files[name] = file.content;
      }
    } else {
      r.body = nlohmann::json::parse(req.body, nullptr, false);
    }
    const int index = count_++;
    const int now = ++in_flight_;
    for (int most = most_in_flight_; now > most && !most_in_flight_.compare_exchange_weak(most, now);) {
    }
    struct Leave {
      std::atomic<int>& in_flight;
      ~Leave() { --in_flight; }
    } leave{in_flight_};
    {
      std::lock_guard lock(mutex_);
      received_.push_back(r);
    }
    const ScriptedReply reply = script_(r, index);
    if (reply.delay_seconds > 0) std::this_thread::sleep_for(std::chrono::duration<double>(reply.delay_seconds));
    std::string body = reply.body, content_type = "application/json";
    if (body.empty()) {
      if (r.path.find("/audio/transcriptions") != std::string::npos) {
        body = nlohmann::json{{"text", reply.text}}.dump();
      } else if (r.path.find("/audio/speech") != std::string::npos) {
        body = reply.audio;
        content_type = "audio/wav";
      } else if (r.body.is_object() && r.body.value("stream", false)) {
        body = streamed(reply);
        content_type = "text/event-stream";
      } else {
        nlohmann::json message = {{"role", "assistant"}, {"content", reply.text}};
        if (!reply.audio.empty())
          message = {{"role", "assistant"}, {"content", nullptr},
                     {"audio", {{"id", "audio-1"}, {"data", util::base64(reply.audio)}, {"transcript", reply.text}}}};
        nlohmann::json choice = {{"index", 0}, {"message", message}, {"finish_reason", "stop"}};
        if (!reply.logprobs.is_null()) choice["logprobs"] = reply.logprobs;
        body = nlohmann::json{{"id", "test"}, {"object", "chat.completion"}, {"choices", {choice}}}.dump();
      }
    }
    for (const auto& [name, value] : reply.headers) res.set_header(name, value);
    res.status = reply.status;
    if (reply.truncate) {
      res.set_content_provider(body.size() + 1000, "application/json",
                               [body](std::size_t, std::size_t, httplib::DataSink& sink) {
                                 sink.write(body.data(), std::min<std::size_t>(body.size(), 10));
                                 return false;  // drop the connection mid-body
                               });
      return;
    }
    if (reply.event_gap_seconds > 0 && content_type == "text/event-stream") {
      res.set_chunked_content_provider(content_type, [body, gap = reply.event_gap_seconds](std::size_t offset,
                                                                                          httplib::DataSink& sink) {
        if (offset == body.size()) {
          sink.done();
          return true;
        }
        if (offset > 0) std::this_thread::sleep_for(std::chrono::duration<double>(gap));
        const std::size_t end = body.find("\n\n", offset) + 2;  // one event at a time
        sink.write(body.data() + offset, end - offset);
        return true;
      });
      return;
    }
    res.set_content(body, content_type);
  };
  server_->Post(R"(/v1.*)", handle);  // also /v1beta/models/M:generateContent, Gemini's
  port_ = server_->bind_to_any_port("127.0.0.1");
  widen_backlog(port_);
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

OpenAiTestServer::~OpenAiTestServer() {
  server_->stop();
  thread_.join();
}

std::string OpenAiTestServer::base_url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

std::vector<ReceivedRequest> OpenAiTestServer::received() const {
  std::lock_guard lock(mutex_);
  return received_;
}

}  // namespace aeval::testing
