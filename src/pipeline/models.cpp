#include <algorithm>
#include "aeval/error.hpp"
#include "aeval/models/codecs.hpp"
#include "aeval/models/espeak_tts.hpp"
#include "aeval/models/openai.hpp"
#include "aeval/models/pocketsphinx_asr.hpp"
#include "aeval/models/dataset_only.hpp"
#include "aeval/models/predictions_file.hpp"
#include "aeval/models/process_model.hpp"
#include "aeval/models/python_env.hpp"
#include "aeval/pipeline/args.hpp"
#include "aeval/pipeline/components.hpp"

namespace aeval::pipeline {

std::unique_ptr<models::Model> load_model(const Registry& registry, const std::string& name) {
  const Entry& entry = registry.get(Kind::model, name);
  Args args(entry);  // validated against the catalog when the registry loaded
  if (entry.class_id == "pocketsphinx") {
    models::PocketSphinxConfig config;
    config.acoustic_model = args.string("acoustic_model", config.acoustic_model.string());
    config.language_model = args.string("language_model", config.language_model.string());
    config.dictionary = args.string("dictionary", config.dictionary.string());
    config.max_concurrency = args.integer("max_concurrency", config.max_concurrency);
    return models::make_pocketsphinx_asr(config);
  }
  if (entry.class_id == "dataset_only") return models::make_dataset_only(std::max(1, args.integer("max_concurrency", 16)));
  if (entry.class_id == "predictions_file") {
    models::PredictionsFileConfig config;
    config.path = args.required_string("path");
    if (config.path.is_relative()) config.path = entry.file.parent_path() / config.path;
    config.id_field = args.string("id_field", config.id_field);
    config.prediction_field = args.string("prediction_field", config.prediction_field);
    return models::make_predictions_file(config);
  }
  if (entry.class_id == "openai_chat" || entry.class_id == "openai_transcription") {
    models::OpenAiConfig config;
    config.name = name;
    config.base_urls = args.strings("base_url");
    config.model = args.required_string("model");
    config.api_key_env = args.string("api_key_env", "");
    config.input_sample_rate = args.integer("input_sample_rate", config.input_sample_rate);
    config.max_concurrency = args.integer("max_concurrency", config.max_concurrency);
    config.timeout_seconds = args.number("timeout_seconds", config.timeout_seconds);
    config.max_retries = args.integer("max_retries", config.max_retries);
    config.backoff_seconds = args.number("backoff_seconds", config.backoff_seconds);
    if (entry.args["temperature"]) config.temperature = args.number("temperature", 0);
    if (entry.args["max_tokens"]) config.max_tokens = args.integer("max_tokens", 0);
    if (entry.args["seed"]) config.seed = args.integer("seed", 0);
    config.stop = args.strings("stop");
    config.logprobs = args.boolean("logprobs", false);
    config.top_logprobs = args.integer("top_logprobs", 0);
    config.language = args.string("language", "");
    if (config.max_concurrency < 1 || config.timeout_seconds <= 0 || config.max_retries < 0)
      throw Error(ErrorCategory::config, entry.where() + ": '" + name +
                                             "' needs max_concurrency >= 1, timeout_seconds > 0, max_retries >= 0");
    return entry.class_id == "openai_chat" ? models::make_openai_chat(config) : models::make_openai_transcription(config);
  }
  if (entry.class_id == "codec") {
    models::CodecConfig config;
    config.codec = args.required_string("codec");
    config.bitrate_kbps = args.integer("bitrate_kbps", config.bitrate_kbps);
    config.mode = args.integer("mode", config.mode);
    config.max_concurrency = std::max(1, args.integer("max_concurrency", config.max_concurrency));
    models::codec_sample_rate(config);  // an unknown codec fails here, at load
    return models::make_codec_model(config);
  }
  if (entry.class_id == "espeak") {
    models::EspeakConfig config;
    config.voice = args.string("voice", config.voice);
    config.words_per_minute = args.integer("words_per_minute", config.words_per_minute);
    config.pitch = args.integer("pitch", config.pitch);
    config.max_concurrency = std::max(1, args.integer("max_concurrency", config.max_concurrency));
    return models::make_espeak_tts(config);
  }
  if (entry.class_id == "process") {
    models::ProcessModelConfig config;
    config.name = name;
    config.command = args.strings("command");
    config.working_dir = entry.file.parent_path();
    config.input_sample_rate = args.integer("input_sample_rate", config.input_sample_rate);
    config.max_concurrency = args.integer("max_concurrency", config.max_concurrency);
    config.timeout_seconds = args.number("timeout_seconds", config.timeout_seconds);
    config.max_restarts = args.integer("max_restarts", config.max_restarts);
    config.bitrate_kbps = args.number("bitrate_kbps", 0);
    if (const std::string requirements = args.string("requirements", ""); !requirements.empty()) {
      std::filesystem::path file = requirements;
      if (file.is_relative()) file = entry.file.parent_path() / file;
      if (!config.command.empty() && (config.command[0] == "python3" || config.command[0] == "python"))
        config.command[0] = models::python_environment(file).string();
      else
        throw Error(ErrorCategory::config, entry.where() + ": '" + name + "' has requirements, so its command must start "
                                                                         "with python3 (run in the environment)");
    }
    if (config.input_sample_rate < 0 || config.max_concurrency < 1 || config.timeout_seconds <= 0 || config.max_restarts < 0)
      throw Error(ErrorCategory::config, entry.where() + ": '" + name +
                                             "' needs input_sample_rate >= 0, max_concurrency >= 1, timeout_seconds > 0, "
                                             "max_restarts >= 0");
    return models::make_process_model(config);
  }
  throw Error(ErrorCategory::internal, entry.where() + ": model class '" + entry.class_id + "' has no loader");
}

}  // namespace aeval::pipeline
