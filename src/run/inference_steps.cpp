#include "run/inference_steps.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <vector>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "run/sample_inputs.hpp"
#include "run/sample_record.hpp"

namespace aeval::pipeline {

namespace {

// The file name of a sample's output audio: its dataset position, which is
// unique and safe whatever characters the id holds.
std::string output_audio_name(std::size_t position) { return fmt::format("outputs/{:06}.wav", position); }

}  // namespace

InferenceSteps::InferenceSteps(const LoadedTask& task, const nlohmann::json& model_identity, ResponseCache* cache,
                               std::filesystem::path run_dir)
    : task_(task), model_identity_(model_identity), cache_(cache), run_dir_(std::move(run_dir)) {}

std::variant<models::Request, models::Response> InferenceSteps::prepare(Work& w) {
  w.sample = task_.dataset.samples[w.position];
  const Sample& sample = *w.sample;
  w.record = sample_json(sample);
  if (sample.unreadable) {
    w.stage = "dataset";
    throw Error(ErrorCategory::data, *sample.unreadable);
  }
  const RenderedPrompt rendered = task_.prompt.render(sample);
  // What was sent, for whoever reads the record (aeval view); audio parts name their index in `audio`.
  if (!task_.prompt.is_audio_alone()) w.record["prompt"] = rendered.shape;
  w.stage = "inputs";
  const SampleInputs inputs = sample_inputs(sample, rendered);
  w.inputs = inputs.fingerprint;
  const models::Model& model = *task_.model;
  // Audio is decoded even when the response is cached, so a cached re-run
  // writes the same records (audio_seconds) as the first run.
  std::vector<Audio> audio;
  if (model.input_sample_rate() > 0) {
    w.stage = "audio";
    if (rendered.audio.empty())
      throw Error(ErrorCategory::data, fmt::format("sample '{}' has no audio for the model (no audio field in its "
                                                   "manifest row, and the prompt names none; a model that reads text "
                                                   "alone, such as a TTS entry for text-only rows, has input_sample_rate: 0)",
                                                   sample.id));
    for (const auto& path : rendered.audio) {
      audio.push_back(load_mono(path, model.input_sample_rate()));
      w.audio_seconds += audio.back().seconds();
    }
  }
  if (cache_ && model.cacheable()) {
    w.stage = "cache";
    w.cache_key = ResponseCache::key(model_identity_, sample.id, rendered.shape,
                                     model.input_sample_rate() > 0 || model.reads_audio_files()
                                         ? inputs.prompt_audio_sha256
                                         : std::vector<std::string>{});
    if (auto response = cache_->get(w.cache_key)) {
      w.cached = true;
      return std::move(*response);
    }
  }
  w.stage = "infer";
  return rendered.request(sample.id, std::move(audio));
}

void InferenceSteps::conclude(Work& w, models::Response response) {
  if (!w.cached && !w.cache_key.empty()) cache_->put(w.cache_key, response);
  w.record["prediction"] = response.text;
  if (response.audio) {  // codecs, TTS, spoken answers: the audio goes next to the run, the record names it
    w.stage = "output";
    const std::string name = output_audio_name(w.position);
    std::filesystem::create_directories(run_dir_ / "outputs");
    write_wav(run_dir_ / name, *response.audio, WavEncoding::float32);
    w.record["output_audio"] = name;
    w.record["output_seconds"] = response.audio->seconds();
  }
  if (!response.logprobs.is_null()) w.record["logprobs"] = response.logprobs;
  w.record["audio_seconds"] = w.audio_seconds;
  score_into(w.record, *w.sample, task_, run_dir_);
  w.sample.reset();
}

void InferenceSteps::fail(Work& w, const std::exception_ptr& error) noexcept {
  w.sample.reset();
  try {
    std::rethrow_exception(error);
  } catch (const EndpointError& e) {
    w.record["error"] = error_json(w.stage, e);
    w.endpoint_error = e.what();
  } catch (const std::exception& e) {
    w.record["error"] = error_json(w.stage, e);
  } catch (...) {
    w.record["error"] = error_json(w.stage, std::runtime_error("an exception that is not a std::exception"));
  }
}

}  // namespace aeval::pipeline
