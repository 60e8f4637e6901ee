// PocketSphinx's answer for a prompt depends on that prompt alone, not on
// what its decoder recognised before: each model here has one decoder, which
// every call reuses.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "aeval/audio_io.hpp"
#include "models/pocketsphinx_asr.hpp"
#include "support/asterisk.hpp"
#include "support/require.hpp"

namespace {

using aeval::testing::kAsteriskSounds;

class PocketSphinxState : public ::testing::Test {
 protected:
  void SetUp() override {
    AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
    aeval::models::PocketSphinxConfig config;
    AEVAL_REQUIRE(std::filesystem::exists(config.acoustic_model), "pocketsphinx-en-us");
    config.max_concurrency = 1;
    model_ = aeval::models::make_pocketsphinx_asr(config);
  }

  std::string transcribe(const std::string& prompt) {
    aeval::models::Request request;
    request.sample_id = prompt;
    request.audio.push_back(aeval::load_mono(kAsteriskSounds / (prompt + ".g722"), model_->input_sample_rate()));
    return model_->infer_and_wait(std::move(request)).text;
  }

  std::unique_ptr<aeval::models::Model> model_;
};

TEST_F(PocketSphinxState, APromptDecodesTheSameAloneAndAfterAnother) {
  // The pair from issue 15: after conf-adminmenu-162, "…to lock or analog…"
  // became "…to lock or camelot…".
  const std::string alone = transcribe("conf-adminmenu-18");
  transcribe("conf-adminmenu-162");
  EXPECT_EQ(transcribe("conf-adminmenu-18"), alone);
}

}  // namespace
