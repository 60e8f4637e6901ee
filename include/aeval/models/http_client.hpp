#pragma once
// HTTP for the remote model backends: one libcurl multi handle driven by one
// thread carries every request in flight (hundreds at once), each with its
// own deadline. Retrying is the caller's decision (the OpenAI backends).
#include <future>
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
  double timeout_seconds = 60;
};

struct HttpResponse {
  long status = 0;                             // 0 when no HTTP response arrived
  std::string body;
  std::map<std::string, std::string> headers;  // names lowercased
  std::string transport_error;                 // connection refused, timeout, truncated body, ...
};

class HttpClient {
 public:
  HttpClient();
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  std::future<HttpResponse> send(HttpRequest request);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The process-wide client every remote model shares.
HttpClient& shared_http_client();

}  // namespace aeval::models
