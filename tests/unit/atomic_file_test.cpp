// Files written whole: concurrent writers of one path (shards building the
// same cached manifest) each put a complete file in place and never fail.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

#include "support/temp_dir.hpp"
#include "util/atomic_file.hpp"

namespace {

TEST(AtomicFile, WritersRacingOnOnePathEachLeaveAWholeFile) {
  aeval::testing::TempDir dir;
  const auto path = dir / "cache" / "manifest.jsonl";
  std::vector<std::thread> writers;
  for (int w = 0; w < 8; ++w)
    writers.emplace_back([&, w] {
      const std::string content(4096, char('a' + w));
      for (int i = 0; i < 50; ++i) EXPECT_NO_THROW(aeval::write_file_atomically(path, content));
    });
  for (auto& t : writers) t.join();
  std::ifstream in(path, std::ios::binary);
  const std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_EQ(written.size(), 4096u);
  EXPECT_EQ(written, std::string(4096, written.front())) << "one writer's file, whole";
  std::size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(path.parent_path())) files += e.is_regular_file();
  EXPECT_EQ(files, 1u) << "no temporary file left behind";
}

}  // namespace
