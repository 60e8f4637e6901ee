// The response cache keys on content: the same manifest reached by another
// spelling of its path, or its audio copied elsewhere, is answered from the
// cache instead of asking (and paying) the model again (issue 15).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <regex>

#include "support/asterisk.hpp"
#include "support/run_aeval.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::testing::kAsteriskSounds;
using aeval::testing::run_aeval;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

TEST(ResponseCacheE2E, AnotherSpellingOfTheManifestOrACopyOfItsAudioIsAHit) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  for (const auto& folder : {dir / "data", dir / "copy"}) {
    std::filesystem::create_directories(folder);
    std::filesystem::copy_file(kAsteriskSounds / "vm-goodbye.g722", folder / "a.g722");
    std::filesystem::copy_file(kAsteriskSounds / "auth-thankyou.g722", folder / "b.g722");
    write_bytes(folder / "m.jsonl", R"({"id": "1", "audio": "a.g722", "text": "goodbye"})" "\n"
                                    R"({"id": "2", "audio": "b.g722", "text": "thank you"})" "\n");
  }
  setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);  // a cache of this test's own
  const auto original = std::filesystem::current_path();
  std::filesystem::current_path(dir.path());
  std::vector<std::string> cached;
  const std::vector<std::string> spellings{"data/m.jsonl", "./data/m.jsonl", (dir / "data" / "m.jsonl").string(),
                                           "data/../data/m.jsonl", "copy/m.jsonl"};
  for (const std::string& manifest : spellings) {
    const auto o = run_aeval(fmt::format("run --dataset {} --model pocketsphinx-en --evaluator wer --output out",
                                         manifest));
    EXPECT_EQ(o.status, 0) << o.output;
    std::smatch m;
    cached.push_back(std::regex_search(o.output, m, std::regex(R"(\((\d+) from the response cache\))")) ? m[1].str() : "?");
  }
  std::filesystem::current_path(original);
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(cached, (std::vector<std::string>{"0", "2", "2", "2", "2"}));
}

}  // namespace
