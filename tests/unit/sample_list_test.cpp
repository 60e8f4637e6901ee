// A dataset's packed samples read back as they were put in: every member (audio and reference kept as the field
// that holds them too), a reference that is absent apart from an empty one, fields of every JSON type, rows larger than a chunk, and a row replaced.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "aeval/error.hpp"
#include "datasets/sample_list.hpp"

namespace {

using aeval::datasets::SampleList;
using aeval::pipeline::Sample;

Sample sample(const std::string& id, nlohmann::json fields) {
  Sample s;
  s.id = id;
  s.audio = "/clips/" + id + ".wav";
  s.fields = std::move(fields);
  return s;
}

TEST(SampleList, EveryMemberReadsBackAsItWasPut) {
  Sample full = sample("a", {{"text", "héllo"},
                             {"said", "hello"},  // the reference, kept once
                             {"audio", "/clips/a.wav"},
                             {"n", -3},
                             {"big", 18446744073709551615ull},
                             {"x", 0.1},
                             {"tiny", 1e-310},
                             {"flag", false},
                             {"none", nullptr},
                             {"nested", {{"list", {1, "two", {{"three", 3.5}}}}}}});
  full.reference = "hello";
  full.unreadable = "m.jsonl:4: too deep";
  Sample empty_reference = sample("b", nlohmann::json::object());
  empty_reference.reference = "";
  Sample bare;  // no audio, no reference, fields null
  bare.id = "c";
  SampleList list;
  for (const auto& s : {full, empty_reference, bare}) list.push_back(s);

  ASSERT_EQ(list.size(), 3u);
  const Sample a = list[0];
  EXPECT_EQ(a.id, "a");
  EXPECT_EQ(a.audio, "/clips/a.wav");
  EXPECT_EQ(a.reference, "hello");
  EXPECT_EQ(a.unreadable, "m.jsonl:4: too deep");
  EXPECT_EQ(a.fields, full.fields);
  EXPECT_EQ(a.fields.dump(), full.fields.dump()) << "numbers print as they did";
  EXPECT_EQ(list[1].reference, "") << "an empty reference is not an absent one";
  EXPECT_FALSE(list[2].reference.has_value());
  EXPECT_FALSE(list[2].unreadable.has_value());
  EXPECT_TRUE(list[2].audio.empty());
  EXPECT_TRUE(list[2].fields.is_null());
  EXPECT_EQ(list.id(1), "b");
  EXPECT_THROW(list.at(3), std::out_of_range);
}

TEST(SampleList, RowsAcrossChunksAndLargerThanOneKeepTheirOrder) {
  SampleList list;
  const std::string long_text(3 << 20, 'x');  // larger than the largest chunk
  for (int i = 0; i < 20000; ++i)
    list.push_back(sample("u" + std::to_string(i), {{"text", i == 777 ? long_text : "row " + std::to_string(i)}}));
  ASSERT_EQ(list.size(), 20000u);
  int i = 0;
  for (const Sample s : list) {
    ASSERT_EQ(s.id, "u" + std::to_string(i));
    ASSERT_EQ(s.fields["text"], i == 777 ? long_text : "row " + std::to_string(i));
    ++i;
  }
  EXPECT_EQ(list.back().id, "u19999");
}

TEST(SampleList, SetReplacesOneRowAndResizeKeepsTheFirst) {
  SampleList list(std::vector<Sample>{sample("a", {{"k", 1}}), sample("b", {{"k", 2}}), sample("c", {{"k", 3}})});
  Sample b = list[1];
  b.audio = "/elsewhere/b.flac";
  list.set(1, b);
  EXPECT_EQ(list[1].audio, "/elsewhere/b.flac");
  EXPECT_EQ(list[1].fields["k"], 2);
  EXPECT_EQ(list[2].id, "c") << "the rows after it are untouched";
  list.resize(2);
  EXPECT_EQ(list.size(), 2u);
  list.resize(5);
  EXPECT_EQ(list.size(), 2u) << "a list never grows by resizing";
}

// Past its limit a list keeps full chunks in an unlinked temporary file: every row reads back, on several threads
// at once (every 13th row longer than the first read of a spilled row), a copy shares what was spilled and grows
// apart, and a row set after the spill is the new one.
TEST(SampleList, RowsPastTheMemoryLimitReadBackFromTheSpillFile) {
  SampleList list(std::size_t(64) << 10);
  const auto text = [](int i) {
    return "row " + std::to_string(i) + std::string(std::size_t(i % 97) * (i % 13 ? 1 : 20), 'y');
  };
  for (int i = 0; i < 20000; ++i) list.push_back(sample("u" + std::to_string(i), {{"text", text(i)}}));
  SampleList copy = list;
  copy.push_back(sample("copy-only", {{"text", "c"}}));
  for (int i = 20000; i < 30000; ++i) list.push_back(sample("u" + std::to_string(i), {{"text", text(i)}}));
  Sample changed = list[5];
  changed.reference = "set after the spill";
  list.set(5, changed);

  std::vector<std::thread> readers;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t)
    readers.emplace_back([&, t] {
      for (int i = t; i < 30000; i += 4) {
        const Sample s = list[std::size_t(i)];
        wrong[std::size_t(t)] += s.id != "u" + std::to_string(i) || s.fields["text"] != text(i);
      }
    });
  for (auto& r : readers) r.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
  EXPECT_EQ(list[5].reference, "set after the spill");
  EXPECT_FALSE(list[6].reference.has_value());
  ASSERT_EQ(copy.size(), 20001u);
  EXPECT_EQ(copy[19999].fields["text"], text(19999));
  EXPECT_EQ(copy.id(20000), "copy-only");
  EXPECT_FALSE(copy[5].reference.has_value()) << "the copy keeps its own row";
}

TEST(SampleList, AnUnusableTemporaryFolderIsNamedInTheError) {
  const char* before = std::getenv("TMPDIR");
  const std::string kept = before ? before : "";
  ::setenv("TMPDIR", "/nonexistent/aeval-tmp", 1);
  SampleList list(std::size_t(8) << 10);
  std::string message;
  try {
    for (int i = 0; i < 2000; ++i) list.push_back(sample("u" + std::to_string(i), {{"text", "some words"}}));
  } catch (const aeval::Error& e) {
    message = e.what();
  }
  if (before) ::setenv("TMPDIR", kept.c_str(), 1);
  else ::unsetenv("TMPDIR");
  EXPECT_NE(message.find("TMPDIR"), std::string::npos) << message;
}

}  // namespace
