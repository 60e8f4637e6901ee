// The download cache against servers that ignore HTTP ranges or cut their bodies short: a partial
// file left by an interrupted download must not wedge the cache (libcurl refuses a whole file sent
// in answer to a range), and a file with no size or digest from its source (audio by URL) is
// checked against the length the server states, or not cached at all.
#include <gtest/gtest.h>
#include <httplib.h>

#include <fmt/format.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "support/temp_dir.hpp"
#include "aeval/error.hpp"
#include "util/download.hpp"
#include "util/sha256.hpp"

namespace {

TEST(DownloadResume, AServerThatIgnoresRangesIsReadFromTheStart) {
  const std::string content(100000, 'x');
  httplib::Server server;
  std::atomic<int> ranged{0};
  server.Get("/file.bin", [&](const httplib::Request& req, httplib::Response& res) {
    if (req.has_header("Range")) ++ranged;
    // Never 206: the whole file, whatever was asked (a chunked reply, which cpp-httplib cannot cut to a range).
    res.status = 200;
    res.set_chunked_content_provider("application/octet-stream", [&](std::size_t offset, httplib::DataSink& sink) {
      if (offset < content.size()) sink.write(content.data() + offset, std::min<std::size_t>(8192, content.size() - offset));
      else sink.done();
      return true;
    });
  });
  const int port = server.bind_to_any_port("127.0.0.1");
  std::thread thread([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));

  aeval::testing::TempDir dir;
  const auto destination = dir / "file.bin";
  aeval::testing::write_bytes(destination.string() + ".partial", std::string(40000, 'x'));  // an interrupted download
  aeval::DownloadOptions options;
  options.progress = false;
  options.offline = false;
  const aeval::RemoteFile file{fmt::format("http://127.0.0.1:{}/file.bin", port), destination,
                               aeval::sha256_hex(content), content.size()};
  EXPECT_NO_THROW(aeval::download_files({file}, options));
  EXPECT_EQ(content, aeval::testing::read_bytes(destination));
  EXPECT_FALSE(std::filesystem::exists(destination.string() + ".partial"));
  EXPECT_GE(ranged.load(), 1) << "the partial file was resumed first";
  server.stop();
  thread.join();
}

// A server that answers every request with `reply` as raw bytes and closes
// the connection (what an HTTP/1.0 server or a cut connection looks like).
class RawServer {
 public:
  explicit RawServer(std::string reply) : reply_(std::move(reply)) {
    listener_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    bind(listener_, reinterpret_cast<sockaddr*>(&address), length);
    listen(listener_, 8);
    getsockname(listener_, reinterpret_cast<sockaddr*>(&address), &length);
    port_ = ntohs(address.sin_port);
    thread_ = std::thread([this] {
      for (;;) {
        const int connection = accept(listener_, nullptr, nullptr);
        if (connection < 0 || stopping_) break;
        char request[4096];
        if (recv(connection, request, sizeof request, 0) > 0) send(connection, reply_.data(), reply_.size(), MSG_NOSIGNAL);
        ::close(connection);
      }
    });
  }
  ~RawServer() {
    stopping_ = true;
    shutdown(listener_, SHUT_RDWR);
    ::close(listener_);
    thread_.join();
  }
  std::string url() const { return fmt::format("http://127.0.0.1:{}/clip.mp3", port_); }

 private:
  std::string reply_;
  int listener_ = -1, port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// What download_files throws for a URL with no size or digest, or "" when it caches the file.
std::string outcome(const RawServer& server, const std::filesystem::path& destination) {
  aeval::DownloadOptions options;
  options.progress = false;
  options.offline = false;
  options.attempts = 2;
  try {
    aeval::download_files({{server.url(), destination, "", std::nullopt}}, options);
    return "";
  } catch (const aeval::Error& e) {
    return e.what();
  }
}

TEST(DownloadLength, ABodyWithoutAStatedLengthIsNotCached) {
  const std::string half(5000, 'a');
  RawServer server("HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\n\r\n" + half);
  aeval::testing::TempDir dir;
  const std::string error = outcome(server, dir / "clip.mp3");
  EXPECT_NE(error.find("the server stated no length"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(dir / "clip.mp3"));
  EXPECT_FALSE(std::filesystem::exists(dir / "clip.mp3.partial"));
}

TEST(DownloadLength, ABodyShorterThanItsContentLengthIsNotCached) {
  RawServer server("HTTP/1.0 200 OK\r\nContent-Length: 10000\r\n\r\n" + std::string(5000, 'a'));
  aeval::testing::TempDir dir;
  const std::string error = outcome(server, dir / "clip.mp3");
  EXPECT_NE(error.find("cannot download"), std::string::npos) << error;
  EXPECT_FALSE(std::filesystem::exists(dir / "clip.mp3"));
}

TEST(DownloadLength, AWholeBodyOfItsStatedLengthIsCached) {
  RawServer server("HTTP/1.0 200 OK\r\nContent-Length: 5000\r\n\r\n" + std::string(5000, 'a'));
  aeval::testing::TempDir dir;
  EXPECT_EQ(outcome(server, dir / "clip.mp3"), "");
  EXPECT_EQ(aeval::testing::read_bytes(dir / "clip.mp3"), std::string(5000, 'a'));
}

// The waits a server asks for, read as numbers it cannot make overflow: a Retry-After of twenty digits
// once became LONG_MAX, and the Hub client's "+ 1 second" overflowed it.
TEST(ServerWaits, RetryAfterAndRateLimitAreCappedAtADay) {
  EXPECT_EQ(aeval::retry_after_seconds(" 120"), 120);
  EXPECT_EQ(aeval::retry_after_seconds("99999999999999999999"), std::nullopt);  // not a 64-bit number: no wait said
  EXPECT_EQ(aeval::retry_after_seconds("9223372036854775807"), 86400);
  EXPECT_EQ(aeval::retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT"), std::nullopt);
  EXPECT_EQ(aeval::rate_limit_reset_seconds("\"api\";r=0;t=217"), 217);
  EXPECT_EQ(aeval::rate_limit_reset_seconds("\"api\";r=0;t=18446744073709551615"), 86400);
  EXPECT_EQ(aeval::rate_limit_reset_seconds("\"api\";r=0"), std::nullopt);
}

}  // namespace
