#include "aeval/models/http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <deque>
#include <mutex>
#include <set>
#include <thread>

namespace aeval::models {

namespace {

// One transfer: its easy handle, what it sends, what came back.
struct Transfer {
  HttpRequest request;
  std::promise<HttpResponse> promise;
  HttpResponse response;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  curl_mime* mime = nullptr;
  char error[CURL_ERROR_SIZE] = {};

  ~Transfer() {
    if (mime) curl_mime_free(mime);
    if (headers) curl_slist_free_all(headers);
    if (easy) curl_easy_cleanup(easy);
  }
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<Transfer*>(user)->response.body.append(data, size * count);
  return size * count;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  const std::string line(data, size * count);
  const auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(" \t"));
    value.erase(value.find_last_not_of(" \t\r\n") + 1);
    static_cast<Transfer*>(user)->response.headers[name] = value;
  }
  return size * count;
}

}  // namespace

struct HttpClient::Impl {
  CURLM* multi = nullptr;
  std::mutex mutex;
  std::deque<std::unique_ptr<Transfer>> incoming;
  std::set<CURL*> active;  // touched by the loop thread only
  std::atomic<bool> stopping{false};
  std::thread loop;

  Impl() {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    multi = curl_multi_init();
    loop = std::thread([this] { run(); });
  }

  ~Impl() {
    stopping = true;
    curl_multi_wakeup(multi);
    loop.join();
    curl_multi_cleanup(multi);
  }

  void start(std::unique_ptr<Transfer> t) {
    Transfer* raw = t.get();
    raw->easy = curl_easy_init();
    CURL* e = raw->easy;
    curl_easy_setopt(e, CURLOPT_URL, raw->request.url.c_str());
    curl_easy_setopt(e, CURLOPT_PRIVATE, raw);
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, raw);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, raw);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, raw->error);
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, long(raw->request.timeout_seconds * 1000));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, long(std::min(raw->request.timeout_seconds, 30.0) * 1000));
    for (const auto& h : raw->request.headers) raw->headers = curl_slist_append(raw->headers, h.c_str());
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, raw->headers);
    if (raw->request.parts.empty()) {
      curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(raw->request.body.size()));
      curl_easy_setopt(e, CURLOPT_POSTFIELDS, raw->request.body.data());
    } else {
      raw->mime = curl_mime_init(e);
      for (const auto& p : raw->request.parts) {
        curl_mimepart* part = curl_mime_addpart(raw->mime);
        curl_mime_name(part, p.name.c_str());
        curl_mime_data(part, p.data.data(), p.data.size());
        if (!p.filename.empty()) curl_mime_filename(part, p.filename.c_str());
        if (!p.content_type.empty()) curl_mime_type(part, p.content_type.c_str());
      }
      curl_easy_setopt(e, CURLOPT_MIMEPOST, raw->mime);
    }
    curl_multi_add_handle(multi, e);
    active.insert(e);
    t.release();  // owned through CURLOPT_PRIVATE until it finishes
  }

  void finish(CURL* easy, CURLcode code) {
    Transfer* raw = nullptr;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &raw);
    std::unique_ptr<Transfer> t(raw);
    curl_multi_remove_handle(multi, easy);
    active.erase(easy);
    if (code == CURLE_OK) {
      curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &t->response.status);
    } else {
      t->response.status = 0;
      t->response.transport_error = t->error[0] ? t->error : curl_easy_strerror(code);
    }
    t->promise.set_value(std::move(t->response));
  }

  void run() {
    while (!stopping) {
      {
        std::lock_guard lock(mutex);
        while (!incoming.empty()) {
          start(std::move(incoming.front()));
          incoming.pop_front();
        }
      }
      int running = 0;
      curl_multi_perform(multi, &running);
      int left = 0;
      while (CURLMsg* m = curl_multi_info_read(multi, &left))
        if (m->msg == CURLMSG_DONE) finish(m->easy_handle, m->data.result);
      curl_multi_poll(multi, nullptr, 0, 200, nullptr);
    }
    // Shutting down: whatever is still in flight gets an answer.
    for (CURL* e : std::set<CURL*>(active)) finish(e, CURLE_ABORTED_BY_CALLBACK);
    std::lock_guard lock(mutex);
    for (auto& t : incoming) {
      t->response.transport_error = "the HTTP client shut down";
      t->promise.set_value(std::move(t->response));
    }
  }
};

HttpClient::HttpClient() : impl_(std::make_unique<Impl>()) {}
HttpClient::~HttpClient() = default;

std::future<HttpResponse> HttpClient::send(HttpRequest request) {
  auto t = std::make_unique<Transfer>();
  t->request = std::move(request);
  auto future = t->promise.get_future();
  {
    std::lock_guard lock(impl_->mutex);
    impl_->incoming.push_back(std::move(t));
  }
  curl_multi_wakeup(impl_->multi);
  return future;
}

HttpClient& shared_http_client() {
  static HttpClient client;
  return client;
}

}  // namespace aeval::models
