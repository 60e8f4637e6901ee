#pragma once
// A minimal HTTP/1.1 server for the remote-overhead benchmark: one thread,
// epoll, keep-alive, every request answered with the same small chat
// completion exactly `latency` after its body arrived. One event loop serves
// tens of thousands of such answers per second, so what the benchmark
// measures is the client, not a thread-per-connection server.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <deque>
#include <string>
#include <unordered_map>

namespace bench {

class FixedLatencyServer {
 public:
  explicit FixedLatencyServer(std::chrono::microseconds latency) : latency_(latency) {
    listener_ = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    if (bind(listener_, reinterpret_cast<sockaddr*>(&address), size) != 0 || listen(listener_, 4096) != 0) std::abort();
    getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &size);
    port_ = ntohs(address.sin_port);
  }

  int port() const { return port_; }

  [[noreturn]] void serve() {
    const int epoll = epoll_create1(0);
    watch(epoll, listener_);
    const std::string body = R"({"choices":[{"index":0,"message":{"role":"assistant","content":"ok"}}]})";
    const std::string answer = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
                               std::to_string(body.size()) + "\r\n\r\n" + body;
    epoll_event events[256];
    for (;;) {
      // Wake exactly when the next answer is due (epoll_wait's milliseconds would add up to 1 ms).
      timespec wait{};
      if (!due_.empty()) {
        const auto left = std::max<Clock::duration>(due_.front().at - Clock::now(), {});
        wait.tv_sec = std::chrono::duration_cast<std::chrono::seconds>(left).count();
        wait.tv_nsec = long((left - std::chrono::seconds(wait.tv_sec)).count());
      }
      const int n = epoll_pwait2(epoll, events, 256, due_.empty() ? nullptr : &wait, nullptr);
      for (int i = 0; i < n; ++i) {
        const int fd = events[i].data.fd;
        if (fd == listener_) {
          for (int c; (c = accept4(listener_, nullptr, nullptr, SOCK_NONBLOCK)) >= 0;) {
            const int one = 1;
            setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            connections_[c] = {{}, ++accepted_};
            watch(epoll, c);
          }
        } else {
          receive(fd);
        }
      }
      // Constant latency: answers fall due in arrival order.
      for (const auto now = Clock::now(); !due_.empty() && due_.front().at <= now; due_.pop_front()) {
        const auto it = connections_.find(due_.front().fd);
        if (it == connections_.end() || it->second.id != due_.front().connection) continue;
        std::size_t sent = 0;
        while (sent < answer.size()) {
          const ssize_t w = write(it->first, answer.data() + sent, answer.size() - sent);
          if (w <= 0) break;  // small answers on loopback: the socket buffer takes them whole
          sent += std::size_t(w);
        }
      }
    }
  }

 private:
  using Clock = std::chrono::steady_clock;
  struct Connection {
    std::string input;
    unsigned long id = 0;  // tells a reused descriptor from the connection that had it
  };
  struct Due {
    Clock::time_point at;
    int fd;
    unsigned long connection;
  };

  static void watch(int epoll, int fd) {
    epoll_event e{};
    e.events = EPOLLIN;
    e.data.fd = fd;
    epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &e);
  }

  void receive(int fd) {
    Connection& c = connections_[fd];
    char buffer[65536];
    for (;;) {
      const ssize_t r = read(fd, buffer, sizeof buffer);
      if (r > 0) {
        c.input.append(buffer, std::size_t(r));
        continue;
      }
      if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) {
        close(fd);  // closing also removes it from the epoll set
        connections_.erase(fd);
        return;
      }
      break;
    }
    // Every complete request (headers + Content-Length bytes) gets an answer.
    for (;;) {
      const auto end = c.input.find("\r\n\r\n");
      if (end == std::string::npos) return;
      std::size_t length = 0;
      for (std::size_t at = 0; at < end;) {
        const auto eol = c.input.find("\r\n", at);
        if (strncasecmp(c.input.c_str() + at, "content-length:", 15) == 0)
          length = std::strtoul(c.input.c_str() + at + 15, nullptr, 10);
        at = eol + 2;
      }
      if (c.input.size() < end + 4 + length) return;
      c.input.erase(0, end + 4 + length);
      due_.push_back({Clock::now() + latency_, fd, c.id});
    }
  }

  std::chrono::microseconds latency_;
  int listener_ = -1;
  int port_ = 0;
  unsigned long accepted_ = 0;
  std::unordered_map<int, Connection> connections_;
  std::deque<Due> due_;
};

}  // namespace bench
