#pragma once
// HTTP for the remote model backends: one libcurl multi handle driven by one
// thread carries every request in flight (hundreds at once), each with its
// own deadline. Everything is asynchronous: a request's completion, and any
// task scheduled with after(), runs on that loop thread. Retrying is the
// caller's decision (the OpenAI backends).
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace aeval::models {

struct MimePart {
  std::string name, data;
  std::string filename, content_type;  // set for file parts
};

struct HttpRequest {
  std::string url;
  std::vector<std::string> headers;  // "Name: value"
  std::string body;                  // POSTed as is when `parts` is empty
  std::vector<MimePart> parts;       // multipart/form-data
  double timeout_seconds = 60;         // the whole answer
  // > 0 and below timeout_seconds: the answer must begin within this, while a
  // streamed one that has begun keeps timeout_seconds for all of it.
  double first_byte_seconds = 0;
};

struct HttpResponse {
  long status = 0;                             // 0 when no HTTP response arrived
  std::string body;
  std::map<std::string, std::string> headers;  // names lowercased
  std::string transport_error;                 // connection refused, timeout, truncated body, ...
  bool unreachable = false;                    // no connection: nothing listens there, or the host is unknown
  bool silent = false;                         // connected, then timed out before any byte of an answer
};

class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Starts `request`; `done` receives its end on the loop thread and must not
  // block (it may send again or schedule with after()).
  void send(HttpRequest request, std::function<void(HttpResponse)> done);
  // Runs `task` on the loop thread `seconds` from now: back-off without a
  // sleeping thread.
  void after(double seconds, std::function<void()> task);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The process-wide client every remote model shares.
HttpClient& shared_http_client();

}  // namespace aeval::models
