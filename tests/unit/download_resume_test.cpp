// The download cache against a server that ignores HTTP ranges: a partial file left by an
// interrupted download must not wedge the cache (libcurl refuses a whole file sent in answer to a
// range); the file is fetched again from its first byte and verified.
#include <gtest/gtest.h>
#include <httplib.h>

#include <fmt/format.h>

#include <atomic>
#include <thread>

#include "support/temp_dir.hpp"
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

}  // namespace
