#include <algorithm>
#include "models/espeak_tts.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "util/subprocess.hpp"
#include "models/model_classes.hpp"

namespace aeval::models {

namespace {

class EspeakTts final : public BlockingModel {
 public:
  explicit EspeakTts(EspeakConfig c) : config_(std::move(c)) {}

  Response compute(const Request& request) override {
    const std::string text = text_to_speak(request);
    const auto start = std::chrono::steady_clock::now();
    char name[] = "/tmp/aeval-tts-XXXXXX.wav";
    const int fd = mkstemps(name, 4);
    if (fd < 0) throw Error(ErrorCategory::model, "espeak-ng: cannot create a temporary file");
    close(fd);
    const auto [status, output, errors] =
        detail::run_to_end({config_.program, "-v", config_.voice, "-s", std::to_string(config_.words_per_minute), "-p",
             std::to_string(config_.pitch), "-w", name, "--stdin"},
            text);
    Response r;
    try {
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw Error(ErrorCategory::model,
                    fmt::format("espeak-ng failed for sample '{}' (status {}): {}{}", request.sample_id,
                                WIFEXITED(status) ? WEXITSTATUS(status) : -1, errors,
                                WIFEXITED(status) && WEXITSTATUS(status) == 127 ? " (install it: scripts/setup.sh)" : ""));
      r.audio = decode_audio(name);
    } catch (...) {
      std::remove(name);
      throw;
    }
    std::remove(name);
    r.compute_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }
  int input_sample_rate() const override { return 0; }
  int max_concurrency() const override { return config_.max_concurrency; }
  bool cacheable() const override { return false; }
  nlohmann::json identity() const override {
    return {{"backend", "espeak-ng (subprocess)"}, {"voice", config_.voice},
            {"words_per_minute", config_.words_per_minute}, {"pitch", config_.pitch}};
  }

 private:
  EspeakConfig config_;
};

}  // namespace

std::unique_ptr<Model> make_espeak_tts(const EspeakConfig& config) { return std::make_unique<EspeakTts>(config); }

namespace {
namespace arg = registry::arg;
const EspeakConfig kEspeakDefaults;
const ModelClasses::Registration kEspeakClass{
    {registry::Kind::model, "espeak", "espeak-ng text-to-speech, run as a subprocess",
     {arg::text("voice", kEspeakDefaults.voice, "an espeak-ng voice (espeak-ng --voices)"),
      arg::integer("words_per_minute", kEspeakDefaults.words_per_minute),
      arg::integer("pitch", kEspeakDefaults.pitch, "0-99"),
      arg::integer("max_concurrency", kEspeakDefaults.max_concurrency).at_least(1)}},
    [](const registry::Args& args) {
      EspeakConfig config;
      config.voice = args.text("voice");
      config.words_per_minute = args.integer("words_per_minute");
      config.pitch = args.integer("pitch");
      config.max_concurrency = args.integer("max_concurrency");
      return make_espeak_tts(config);
    }};
}  // namespace

}  // namespace aeval::models
