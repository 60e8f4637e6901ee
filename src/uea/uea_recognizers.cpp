#include "uea/uea_recognizers.hpp"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "aeval/error.hpp"
#include "prompts/prompt.hpp"
#include "evaluators/scoring_models.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

UeaRecognizer uea_recognizer(const std::string& model, const std::string& prompt) {
  const std::string paraformer =
      "speech_paraformer-speech_seaco_paraformer_large_asr_nat-zh-cn-16k-common-vocab8404-pytorch";
  static const std::map<std::pair<std::string, std::string>, std::string> kRecognizers = {
      // WhisperModel: whisper-large-v3, the language detected unless the prompt names one.
      {{"whisper", "whisper-asr"}, "whisper-large-v3"},
      {{"whisper", "whisper-asr-en"}, "whisper-large-v3-en"},
      // SeedTTSWhisperModel (audio_evals/lib/whisper/seed_tts_eval.py): English forced, the clip's
      // first 30 s (the processor's window; no chunks), or with chunk_size 28 pieces of 28 s joined.
      {{"seed-tts-whisper", "whisper-asr-en"}, "whisper-large-v3-en-cut30s"},
      {{"long-tts-whisper", "whisper-asr-en"}, "whisper-large-v3-en-28s"},
      // FunASR's SeACo-Paraformer, whole, or in pieces of 28 s.
      {{paraformer, "simple-asr"}, "paraformer-zh"},
      {{"long_tts_" + paraformer, "simple-asr"}, "paraformer-zh-28s"}};
  const auto found = kRecognizers.find({model, prompt});
  if (found != kRecognizers.end()) return {found->second, ""};
  // CV3WhisperModel (audio_evals/lib/whisper/cv3.py): openai-whisper's large-v3, the prompt's language forced.
  for (const char* language : {"en", "ja", "ko", "de", "es", "fr", "it", "ru"})
    if (model == "cv3-whisper" && prompt == std::string("whisper-asr-") + language)
      return {std::string("whisper-large-v3-openai-") + language, ""};
  // Any other pair (the MiniMax sets' Whisper in 24 languages): UEA's own class, asked as UEA asks it.
  if (model.empty() || prompt.empty())
    throw Error(ErrorCategory::config, fmt::format("UEA's recognizer needs a model and a prompt ('{}', '{}')", model, prompt));
  return {model, prompt};
}

std::string uea_scoring_model(const std::string& model) {
  static const std::map<std::string, std::string> kModels = {
      // Simo: WavLM-large with UniSpeech's ECAPA-TDNN speaker head, as Seed-TTS-Eval scores SIM.
      {"wavlm_large", "wavlm-ecapa-sim"},
      // CV3SpeakerSim: 3D-Speaker's ERes2Net (speakerlab from UEA's tree).
      {"speech_eres2net_sv_en_voxceleb_16k", "eres2net-sv-en"},
      // CV3EmotionEval: emotion2vec+ large through ModelScope's pipeline.
      {"emotion2vec_plus_large", "emotion2vec-plus-large"}};
  const auto found = kModels.find(model);
  if (found == kModels.end()) throw Error(ErrorCategory::config, fmt::format("no scoring model runs UEA's model '{}'", model));
  return found->second;
}

registry::ArgSpec recognizer_prompt_arg() {
  return registry::arg::text("prompt", "", "a prompt entry the model is asked with, rendered for the audio (UEA's "
                                           "own model classes, asked as UEA asks them); '': the model gets the audio alone");
}

Hearing uea_hearing(const registry::Registry& registry, std::shared_ptr<ScoringModels> scoring, const std::string& model,
                    const std::string& prompt) {
  if (prompt.empty())
    return [scoring, model](const std::filesystem::path& audio, const nlohmann::json&) { return scoring->transcribe(model, audio); };
  if (!registry.contains(registry::Kind::prompt, prompt))
    throw Error(ErrorCategory::config, fmt::format("recognizer '{}': no prompt entry '{}'", model, prompt));
  const auto asked = std::make_shared<const Prompt>(Prompt::load(registry, prompt));
  return [scoring, model, asked](const std::filesystem::path& audio, const nlohmann::json& inference_kwargs) {
    return scoring
        ->ask(model, *asked, Sample{audio.filename().string(), audio, std::nullopt, nlohmann::json::object()}, 0,
              inference_kwargs)
        .text;
  };
}

}  // namespace aeval::pipeline
