// A model asked once per clip: each request carries the text and one clip, the answers come back as a JSON array in
// the clips' order, and a clip that fails fails the whole request.
#include "models/each_audio.hpp"

#include <gtest/gtest.h>

#include <mutex>
#include <stdexcept>

namespace {

using aeval::models::Message;
using aeval::models::Part;
using aeval::models::Request;
using aeval::models::Response;

// Answers with the audio file it was given and the text it read; fails a request for "broken.wav".
class ClipEcho final : public aeval::models::BlockingModel {
 public:
  std::vector<Request> seen;
  int input_sample_rate() const override { return 0; }
  int max_concurrency() const override { return 1; }
  nlohmann::json identity() const override { return {{"name", "clip-echo"}}; }

 protected:
  Response compute(const Request& r) override {
    seen.push_back(r);
    const std::string file = r.audio_files.empty() ? "" : r.audio_files[0].string();
    if (file == "broken.wav") throw std::runtime_error("no such clip");
    Response out;
    for (const auto& m : r.messages)
      for (const auto& p : m.parts) out.text += p.type == Part::Type::text ? p.text : "[" + file + "]";
    out.compute_seconds = 1;
    return out;
  }
};

Request pair(const std::string& a, const std::string& b) {
  Request r;
  r.sample_id = "s";
  r.messages = {Message{"system", {{Part::Type::text, "Caption it. ", 0}}},
                Message{"user", {{Part::Type::audio, "", 0}, {Part::Type::audio, "", 1}, {Part::Type::text, " now", 0}}}};
  r.audio_files = {a, b};
  return r;
}

TEST(EachAudio, AsksOncePerClipAndAnswersInTheirOrder) {
  auto echo = std::make_unique<ClipEcho>();
  ClipEcho* inner = echo.get();
  const auto model = aeval::models::ask_each_audio(std::move(echo));
  const Response r = model->infer_and_wait(pair("a.wav", "b.wav"));
  EXPECT_EQ(nlohmann::json::parse(r.text), (nlohmann::json{"Caption it. [a.wav] now", "Caption it. [b.wav] now"}));
  EXPECT_EQ(r.compute_seconds, 2);
  EXPECT_EQ(model->identity(), (nlohmann::json{{"name", "clip-echo"}, {"asked", "once per audio clip"}}))
      << "its answers are keyed apart from the model's own";
  ASSERT_EQ(inner->seen.size(), 2u);
  for (const Request& one : inner->seen) {
    ASSERT_EQ(one.messages.size(), 2u);
    ASSERT_EQ(one.messages[1].parts.size(), 2u) << "the text and one clip";
    EXPECT_EQ(one.messages[1].parts[0].audio_index, 0u);
    EXPECT_EQ(one.audio_files.size(), 1u);
  }
}

TEST(EachAudio, AClipThatFailsFailsTheRequestAndOneClipGoesAsItIs) {
  auto echo = std::make_unique<ClipEcho>();
  ClipEcho* inner = echo.get();
  const auto model = aeval::models::ask_each_audio(std::move(echo));
  EXPECT_THROW(model->infer_and_wait(pair("a.wav", "broken.wav")), std::runtime_error);
  Request single = pair("a.wav", "b.wav");
  single.messages[1].parts.erase(single.messages[1].parts.begin() + 1);
  inner->seen.clear();
  EXPECT_EQ(model->infer_and_wait(single).text, "Caption it. [a.wav] now");
  ASSERT_EQ(inner->seen.size(), 1u);
  EXPECT_EQ(inner->seen[0].audio_files.size(), 2u) << "a request of one clip is not rewritten";
}

}  // namespace
