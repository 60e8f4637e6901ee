#include "models/http_client.hpp"

#include <curl/curl.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <queue>
#include <set>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "aeval/error.hpp"
#include "util/download.hpp"

namespace aeval::models {

namespace {

// One transfer: its easy handle, what it sends, what came back.
struct Transfer {
  HttpRequest request;
  std::function<void(HttpResponse)> done;
  HttpResponse response;
  CURL* easy = nullptr;
  std::uint64_t serial = 0;  // tells this transfer from a later one reusing `easy`
  bool began = false;        // a byte of the answer arrived
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
  static_cast<Transfer*>(user)->began = true;
  static_cast<Transfer*>(user)->response.body.append(data, size * count);
  return size * count;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<Transfer*>(user)->began = true;
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

// A task due at a time; the earliest first, ties in scheduling order.
struct Scheduled {
  std::chrono::steady_clock::time_point at;
  std::uint64_t order;
  std::function<void()> task;
  bool operator>(const Scheduled& other) const { return at != other.at ? at > other.at : order > other.order; }
};

// The event loop: curl's socket interface over epoll, so each wake-up costs
// the sockets that are ready, not every transfer in flight. Sockets are
// watched one-shot: an event disarms its socket and the loop re-arms it only
// while curl still wants it, so a request on a kept-alive connection costs
// one epoll_ctl. Easy handles are reused (curl_easy_reset keeps nothing of
// the previous request).
struct HttpClient::Impl {
  using Clock = std::chrono::steady_clock;
  CURLM* multi = nullptr;
  int epoll = -1;
  int wake = -1;  // eventfd: senders on other threads and the destructor rouse the loop
  std::mutex mutex;
  std::deque<std::unique_ptr<Transfer>> incoming;
  std::priority_queue<Scheduled, std::vector<Scheduled>, std::greater<>> scheduled;
  std::uint64_t scheduled_count = 0;
  // Touched by the loop thread only:
  std::set<CURL*> active;
  std::unordered_map<std::uint64_t, CURL*> by_serial;  // the active transfers by serial
  std::uint64_t serials = 0;
  std::vector<CURL*> idle;
  std::unordered_map<curl_socket_t, int> wanted;  // curl's interest per socket (CURL_POLL_IN/OUT/INOUT)
  std::unordered_set<curl_socket_t> armed;        // sockets epoll will report once more
  std::unordered_set<curl_socket_t> registered;   // sockets added to epoll (a closed one leaves by itself)
  long timer_ms = -1;  // curl's next timeout; -1: none
  Clock::time_point timer_set;
  std::atomic<bool> stopping{false};
  std::thread loop;

  Impl() {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    multi = curl_multi_init();
    epoll = epoll_create1(EPOLL_CLOEXEC);
    wake = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (!multi || epoll < 0 || wake < 0) throw Error(ErrorCategory::internal, "cannot start the HTTP client");
    epoll_event e{};
    e.events = EPOLLIN;
    e.data.fd = wake;
    epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &e);
    curl_multi_setopt(multi, CURLMOPT_SOCKETFUNCTION, on_socket);
    curl_multi_setopt(multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(multi, CURLMOPT_TIMERFUNCTION, on_timer);
    curl_multi_setopt(multi, CURLMOPT_TIMERDATA, this);
    // Keep every connection: curl's default cache (4 per transfer in flight)
    // shrinks between waves of requests and closes connections a moment
    // later needed again.
    curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, 4096L);
    loop = std::thread([this] { run(); });
    pthread_setname_np(loop.native_handle(), "aeval-http");  // visible in top -H and perf
  }

  ~Impl() {
    stopping = true;
    rouse();
    loop.join();
    for (CURL* e : idle) curl_easy_cleanup(e);
    curl_multi_cleanup(multi);
    close(wake);
    close(epoll);
  }

  void rouse() const {
    const std::uint64_t one = 1;
    [[maybe_unused]] const auto written = write(wake, &one, sizeof one);
  }

  static int on_socket(CURL*, curl_socket_t socket, int what, void* user, void*) {
    auto* self = static_cast<Impl*>(user);
    if (what == CURL_POLL_REMOVE) {
      self->wanted.erase(socket);
      // Still armed: disarm, or a later socket with this number would be taken as armed.
      if (self->armed.erase(socket)) self->watch(socket, 0);
    } else {
      int& current = self->wanted[socket];
      if (current != what || !self->armed.count(socket)) {
        current = what;
        self->watch(socket, what);
        self->armed.insert(socket);
      }
    }
    return 0;
  }

  // Points epoll at `socket` for curl's interest `what` (0: nothing), once.
  void watch(curl_socket_t socket, int what) {
    epoll_event e{};
    e.events = EPOLLONESHOT | (what & CURL_POLL_IN ? EPOLLIN : 0u) | (what & CURL_POLL_OUT ? EPOLLOUT : 0u);
    e.data.fd = socket;
    if (registered.count(socket) && epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &e) == 0) return;
    if (epoll_ctl(epoll, EPOLL_CTL_ADD, socket, &e) == 0 || (errno == EEXIST && epoll_ctl(epoll, EPOLL_CTL_MOD, socket, &e) == 0))
      registered.insert(socket);
  }

  static int on_timer(CURLM*, long timeout_ms, void* user) {
    auto* self = static_cast<Impl*>(user);
    self->timer_ms = timeout_ms;
    self->timer_set = std::chrono::steady_clock::now();
    return 0;
  }

  void start(std::unique_ptr<Transfer> t) {
    Transfer* raw = t.get();
    if (idle.empty()) {
      raw->easy = curl_easy_init();
    } else {
      raw->easy = idle.back();
      idle.pop_back();
    }
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
    raw->serial = ++serials;
    by_serial[raw->serial] = e;
    const double first_byte = raw->request.first_byte_seconds;
    if (first_byte > 0 && first_byte < raw->request.timeout_seconds) {
      // curl has no first-byte limit, and its socket loop calls no progress callback while a transfer idles:
      // the loop's own timer ends a transfer still without a byte.
      const std::uint64_t serial = raw->serial;
      schedule(first_byte, [this, serial, first_byte] {
        const auto it = by_serial.find(serial);
        if (it == by_serial.end()) return;
        Transfer* waiting = nullptr;
        curl_easy_getinfo(it->second, CURLINFO_PRIVATE, &waiting);
        if (waiting->began) return;
        std::snprintf(waiting->error, sizeof waiting->error, "no byte of an answer in %g s", first_byte);
        finish(it->second, CURLE_OPERATION_TIMEDOUT);
      });
    }
    t.release();  // owned through CURLOPT_PRIVATE until it finishes
  }

  void schedule(double seconds, std::function<void()> task) {
    const std::lock_guard lock(mutex);
    const auto at = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    scheduled.push({at, scheduled_count++, std::move(task)});
  }

  void finish(CURL* easy, CURLcode code) {
    Transfer* raw = nullptr;
    curl_easy_getinfo(easy, CURLINFO_PRIVATE, &raw);
    std::unique_ptr<Transfer> t(raw);
    curl_multi_remove_handle(multi, easy);
    active.erase(easy);
    by_serial.erase(t->serial);
    if (code == CURLE_OK) {
      curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &t->response.status);
    } else {
      t->response.status = 0;
      t->response.transport_error = t->error[0] ? t->error : curl_easy_strerror(code);
      t->response.unreachable = host_unreachable(code);
      t->response.silent = code == CURLE_OPERATION_TIMEDOUT && t->response.headers.empty() && t->response.body.empty();
    }
    curl_easy_reset(easy);
    idle.push_back(easy);
    t->easy = nullptr;
    t->done(std::move(t->response));
  }

  void collect_finished() {
    int left = 0;
    while (CURLMsg* m = curl_multi_info_read(multi, &left))
      if (m->msg == CURLMSG_DONE) finish(m->easy_handle, m->data.result);
  }

  // Milliseconds until curl's timer or the next scheduled task is due (-1: wait for sockets only).
  int wait_ms() {
    long ms = -1;
    if (timer_ms >= 0) {
      const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - timer_set);
      ms = std::max<long>(0, timer_ms - long(elapsed.count()));
    }
    const std::lock_guard lock(mutex);
    if (!scheduled.empty()) {
      // Rounded up: waking early would spin until the task is due.
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(scheduled.top().at - Clock::now());
      const long task_ms = std::max<long>(0, long(left.count()));
      ms = ms < 0 ? task_ms : std::min(ms, task_ms);
    }
    return int(ms);
  }

  // The scheduled tasks due by `until`, in order, taken off the queue; the
  // caller runs them outside the lock (they may schedule more).
  std::vector<std::function<void()>> take_scheduled(Clock::time_point until) {
    std::vector<std::function<void()>> due;
    const std::lock_guard lock(mutex);
    for (; !scheduled.empty() && scheduled.top().at <= until; scheduled.pop())
      due.push_back(std::move(const_cast<Scheduled&>(scheduled.top()).task));  // popped right after
    return due;
  }

  void run() {
    int running = 0;
    epoll_event events[256];
    while (!stopping) {
      std::deque<std::unique_ptr<Transfer>> arrived;
      {
        std::lock_guard lock(mutex);
        arrived.swap(incoming);
      }
      for (auto& t : arrived) start(std::move(t));  // outside the lock: start() may schedule
      const int n = epoll_wait(epoll, events, 256, wait_ms());
      for (int i = 0; i < n; ++i) {
        const int fd = events[i].data.fd;
        if (fd == wake) {
          std::uint64_t count = 0;
          [[maybe_unused]] const auto got = read(wake, &count, sizeof count);
          continue;
        }
        armed.erase(fd);  // one-shot: this event disarmed it
        const int flags = (events[i].events & EPOLLIN ? CURL_CSELECT_IN : 0) |
                          (events[i].events & EPOLLOUT ? CURL_CSELECT_OUT : 0) |
                          (events[i].events & (EPOLLERR | EPOLLHUP) ? CURL_CSELECT_ERR : 0);
        curl_multi_socket_action(multi, fd, flags, &running);
        // curl still waiting on this socket (a body in several reads): watch it again.
        if (const auto it = wanted.find(fd); it != wanted.end() && !armed.count(fd)) {
          watch(fd, it->second);
          armed.insert(fd);
        }
      }
      if (timer_ms >= 0) {
        const auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - timer_set);
        if (elapsed.count() >= timer_ms) {
          timer_ms = -1;  // curl sets a new one from inside the call if it needs one
          curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running);
        }
      }
      collect_finished();
      for (auto& task : take_scheduled(Clock::now())) task();
    }
    // Shutting down: whatever is in flight, queued or scheduled gets its end
    // now (a completion may send or schedule again: repeat until none does).
    for (CURL* e : std::set<CURL*>(active)) finish(e, CURLE_ABORTED_BY_CALLBACK);
    for (;;) {
      const auto tasks = take_scheduled(Clock::time_point::max());
      std::deque<std::unique_ptr<Transfer>> left;
      {
        const std::lock_guard lock(mutex);
        left.swap(incoming);
      }
      if (left.empty() && tasks.empty()) break;
      for (auto& task : tasks) task();
      for (auto& t : left) {
        t->response.transport_error = "the HTTP client shut down";
        t->done(std::move(t->response));
      }
    }
  }

  bool on_loop_thread() const { return std::this_thread::get_id() == loop.get_id(); }
};

HttpClient::HttpClient() : impl_(std::make_unique<Impl>()) {}
HttpClient::~HttpClient() = default;

void HttpClient::send(HttpRequest request, std::function<void(HttpResponse)> done) {
  auto t = std::make_unique<Transfer>();
  t->request = std::move(request);
  t->done = std::move(done);
  bool was_empty = false;
  {
    std::lock_guard lock(impl_->mutex);
    was_empty = impl_->incoming.empty();
    impl_->incoming.push_back(std::move(t));
  }
  // The loop drains the whole queue when it next turns: only the first
  // arrival from another thread need rouse it.
  if (was_empty && !impl_->on_loop_thread()) impl_->rouse();
}

void HttpClient::after(double seconds, std::function<void()> task) {
  impl_->schedule(seconds, std::move(task));
  if (!impl_->on_loop_thread()) impl_->rouse();
}

HttpClient& shared_http_client() {
  static HttpClient client;
  return client;
}

}  // namespace aeval::models
