#include "models/pocketsphinx_asr.hpp"

#include <sphinxbase/err.h>
#include <pocketsphinx.h>

#include <chrono>
#include <cmath>
#include <mutex>
#include <vector>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "models/model_classes.hpp"

namespace aeval::models {

namespace {

constexpr int kRate = 16000;

struct Decoder {
  cmd_ln_t* config = nullptr;
  ps_decoder_t* ps = nullptr;
  ~Decoder() {
    if (ps) ps_free(ps);
    if (config) cmd_ln_free_r(config);
  }
};


class PocketSphinxAsr final : public BlockingModel {
 public:
  explicit PocketSphinxAsr(PocketSphinxConfig config) : config_(std::move(config)) {
    for (const auto& path : {config_.acoustic_model, config_.language_model, config_.dictionary}) {
      if (!std::filesystem::exists(path))
        throw Error(ErrorCategory::model, "pocketsphinx-en: model file " + path.string() +
                                              " is missing (install Debian's pocketsphinx-en-us: scripts/setup.sh)");
    }
    err_set_logfp(nullptr);  // the decoder's own log is noise on aeval's output
  }

  Response compute(const Request& request) override {
    if (request.audio.size() != 1)
      throw Error(ErrorCategory::model, "pocketsphinx-en: expects exactly one audio input, got " +
                                            std::to_string(request.audio.size()));
    const Audio& audio = request.audio.front();
    if (audio.sample_rate != kRate || audio.channels != 1)
      throw Error(ErrorCategory::internal, "pocketsphinx-en: audio must be 16 kHz mono");
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<Decoder> decoder = acquire();
    const std::vector<int16_t> pcm = to_pcm16(audio.samples);
    std::string text;
    // The noise estimate that drives silence removal lives on from one
    // utterance to the next unless the stream restarts: restart it, so the
    // transcript depends on this file alone.
    if (ps_start_stream(decoder->ps) < 0 || ps_start_utt(decoder->ps) < 0 ||
        ps_process_raw(decoder->ps, pcm.data(), pcm.size(), FALSE, TRUE) < 0 || ps_end_utt(decoder->ps) < 0) {
      release(std::move(decoder));
      throw Error(ErrorCategory::model, "pocketsphinx-en: decoding failed for sample " + request.sample_id);
    }
    int32 score = 0;
    if (const char* hyp = ps_get_hyp(decoder->ps, &score)) text = hyp;
    release(std::move(decoder));
    Response response;
    response.text = text;
    response.compute_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return response;
  }

  int input_sample_rate() const override { return kRate; }
  int max_concurrency() const override { return config_.max_concurrency; }

  nlohmann::json identity() const override {
    return {{"backend", "pocketsphinx"},
            {"library", "libpocketsphinx (Debian pocketsphinx 0.8+5prealpha)"},
            {"acoustic_model", config_.acoustic_model.string()},
            {"language_model", config_.language_model.string()},
            {"dictionary", config_.dictionary.string()},
            {"decoding", "one utterance per file, 16 kHz mono int16, batch CMN, no noise removal, "
                         "silence-removal noise estimate restarted per file"}};
  }

 private:
  // Decoders are expensive to load and not thread-safe: keep a pool.
  std::unique_ptr<Decoder> acquire() {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      auto decoder = std::move(idle_.back());
      idle_.pop_back();
      return decoder;
    }
    auto decoder = std::make_unique<Decoder>();
    decoder->config = cmd_ln_init(nullptr, ps_args(), TRUE, "-hmm", config_.acoustic_model.c_str(), "-lm",
                                  config_.language_model.c_str(), "-dict", config_.dictionary.c_str(),
                                  "-logfn", "/dev/null",
                                  // Live CMN carries its mean from one file to the next, so results
                                  // would depend on which files a pooled decoder saw before: batch CMN
                                  // normalizes each file by its own mean. compute() restarts the
                                  // noise estimate, the other state kept across files.
                                  "-cmn", "batch", "-remove_noise", "no", nullptr);
    if (decoder->config) decoder->ps = ps_init(decoder->config);
    if (!decoder->ps) throw Error(ErrorCategory::model, "pocketsphinx-en: the decoder failed to load its model");
    return decoder;
  }

  void release(std::unique_ptr<Decoder> decoder) {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(decoder));
  }

  PocketSphinxConfig config_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Decoder>> idle_;
};

}  // namespace

std::unique_ptr<Model> make_pocketsphinx_asr(const PocketSphinxConfig& config) {
  return std::make_unique<PocketSphinxAsr>(config);
}

namespace {
using registry::Kind;
namespace arg = registry::arg;
const PocketSphinxConfig kPocketSphinxDefaults;
const ModelClasses::Registration kPocketSphinxClass{
    {Kind::model, "pocketsphinx", "CMU PocketSphinx speech recognition, linked natively",
     {arg::path("acoustic_model", kPocketSphinxDefaults.acoustic_model.string()),
      arg::path("language_model", kPocketSphinxDefaults.language_model.string()),
      arg::path("dictionary", kPocketSphinxDefaults.dictionary.string()),
      arg::integer("max_concurrency", kPocketSphinxDefaults.max_concurrency, "decoders run in parallel").at_least(1)}},
    [](const registry::Args& args) {
      PocketSphinxConfig config;
      config.acoustic_model = args.path("acoustic_model");
      config.language_model = args.path("language_model");
      config.dictionary = args.path("dictionary");
      config.max_concurrency = args.integer("max_concurrency");
      return make_pocketsphinx_asr(config);
    }};
}  // namespace

}  // namespace aeval::models
