#include "view/view_server.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <sys/socket.h>

#include <charconv>
#include <optional>
#include <string_view>

#include "aeval/error.hpp"
#include "view/view_api.hpp"

namespace aeval::view {

extern const std::string_view kPage;  // page.html, embedded by CMake (view_page.cpp.in)

namespace {

using nlohmann::json;

constexpr std::size_t kMaxPage = 1000;  // samples or rows per request

void send_json(httplib::Response& res, const json& body) {
  res.set_content(body.dump(-1, ' ', false, json::error_handler_t::replace), "application/json");
}

void refuse(httplib::Response& res, int status, const std::string& why) {
  res.status = status;
  send_json(res, {{"error", why}});
}

std::size_t number_param(const httplib::Request& req, const char* key, std::size_t fallback) {
  if (!req.has_param(key)) return fallback;
  const std::string text = req.get_param_value(key);
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw Error(ErrorCategory::config, fmt::format("'{}' must be a count, not '{}'", key, text));
  return value;
}

// A sample position from the path: a count (else a config error: 400); one past any run's end (more digits than
// a position holds) reads as none, which its route answers with 404.
std::optional<std::size_t> position_of(const std::string& text) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw Error(ErrorCategory::config, fmt::format("a sample position is a count from 0, not '{}'", text));
  std::size_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::string text_param(const httplib::Request& req, const char* key) {
  return req.has_param(key) ? req.get_param_value(key) : "";
}

}  // namespace

void serve(const ResultsFolder& results, const ServerOptions& options,
           const std::function<void(const std::string& url)>& ready) {
  httplib::Server server;
  // A run id from the URL is only ever looked up inside the results folder.
  const auto run_or_refuse = [&results](const std::string& id, httplib::Response& res) {
    auto dir = results.run_dir(id);
    if (!dir) refuse(res, 404, fmt::format("no run '{}' in {}", id, results.root().string()));
    return dir;
  };

  server.Get("/", [](const httplib::Request&, httplib::Response& res) {
    res.set_content(std::string(kPage), "text/html; charset=utf-8");
  });
  server.Get("/api/runs", [&](const httplib::Request&, httplib::Response& res) {
    send_json(res, {{"root", results.root().string()}, {"runs", results.runs()}});
  });
  server.Get("/api/boards", [&](const httplib::Request&, httplib::Response& res) {
    std::set<std::string> broken;  // the run list's: their boards would show what the list says is broken
    for (const auto& run : results.runs())
      if (run.value("state", "") == "broken") broken.insert(run.value("id", ""));
    send_json(res, leaderboards(results.root(), broken));
  });
  server.Get(R"(/api/runs/(.+)/samples/([^/]+)/audio/([A-Za-z0-9_.-]+))",
             [&](const httplib::Request& req, httplib::Response& res) {
               const auto dir = run_or_refuse(req.matches[1], res);
               if (!dir) return;
               const auto position = position_of(req.matches[2]);
               const auto wav = position ? sample_audio_wav(*dir, *position, req.matches[3]) : std::nullopt;
               if (!wav) return refuse(res, 404, fmt::format("sample {} has no {} audio", std::string(req.matches[2]),
                                                             std::string(req.matches[3])));
               res.set_header("Cache-Control", "no-cache");
               res.set_content(*wav, "audio/wav");  // httplib answers Range requests from it (206)
             });
  server.Get(R"(/api/runs/(.+)/samples/([^/]+))", [&](const httplib::Request& req, httplib::Response& res) {
    const auto dir = run_or_refuse(req.matches[1], res);
    if (!dir) return;
    const auto position = position_of(req.matches[2]);
    const auto sample = position ? sample_detail(*dir, *position) : std::nullopt;
    if (!sample) return refuse(res, 404, fmt::format("run has no sample at position {}", std::string(req.matches[2])));
    send_json(res, *sample);
  });
  server.Get(R"(/api/runs/(.+)/samples)", [&](const httplib::Request& req, httplib::Response& res) {
    const auto dir = run_or_refuse(req.matches[1], res);
    if (!dir) return;
    pipeline::RunStore::Query q;
    q.sort_score = text_param(req, "sort");
    q.descending = text_param(req, "order") == "desc";
    q.failed_only = text_param(req, "failed") == "1";
    q.contains = text_param(req, "q");
    q.field = text_param(req, "field");
    q.field_value = text_param(req, "value");
    q.offset = number_param(req, "offset", 0);
    q.limit = std::min(number_param(req, "limit", 50), kMaxPage);
    send_json(res, samples_page(*dir, q));
  });
  server.Get("/api/compare", [&](const httplib::Request& req, httplib::Response& res) {
    const auto a = run_or_refuse(text_param(req, "a"), res);
    if (!a) return;
    const auto b = run_or_refuse(text_param(req, "b"), res);
    if (!b) return;
    const std::string metric = text_param(req, "metric");
    if (metric.empty()) return refuse(res, 400, "compare needs metric=<score name>");
    send_json(res, compare_runs(*a, *b, metric, text_param(req, "order") == "asc", number_param(req, "offset", 0),
                                std::min(number_param(req, "limit", 50), kMaxPage)));
  });
  // Any other API path: a JSON error too, as the page reads every API answer.
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    if (req.path.rfind("/api/", 0) == 0 && res.body.empty()) send_json(res, {{"error", "no such API path: " + req.path}});
  });
  // One request's failure (an unreadable clip, a malformed store) is its own answer, never the server's end.
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr error) {
    try {
      std::rethrow_exception(error);
    } catch (const Error& e) {
      refuse(res, e.category() == ErrorCategory::config ? 400 : 422, e.what());
    } catch (const std::exception& e) {
      refuse(res, 500, e.what());
    }
  });

  // cpp-httplib's default is SO_REUSEPORT, with which a second `aeval view` on a port another one holds listens
  // too, and requests go to either at random. SO_REUSEADDR alone refuses a port in use, and still lets a restarted
  // viewer take its port back at once.
  server.set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  int port = options.port;
  if (port == 0) {
    port = server.bind_to_any_port(options.host);
  } else if (!server.bind_to_port(options.host, port)) {
    port = -1;
  }
  if (port < 0)
    throw Error(ErrorCategory::config, fmt::format("cannot listen on {}:{}: the port is in use (another aeval view?) "
                                                   "or not allowed; choose another with --port, or --port 0 for any free one",
                                                   options.host, options.port));
  ready(fmt::format("http://{}:{}/", options.host, port));
  server.listen_after_bind();
}

}  // namespace aeval::view
