#include "aeval/error.hpp"
#include "aeval/models/pocketsphinx_asr.hpp"
#include "aeval/models/predictions_file.hpp"
#include "aeval/models/process_model.hpp"
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
  if (entry.class_id == "predictions_file") {
    models::PredictionsFileConfig config;
    config.path = args.required_string("path");
    if (config.path.is_relative()) config.path = entry.file.parent_path() / config.path;
    config.id_field = args.string("id_field", config.id_field);
    config.prediction_field = args.string("prediction_field", config.prediction_field);
    return models::make_predictions_file(config);
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
    if (config.input_sample_rate < 0 || config.max_concurrency < 1 || config.timeout_seconds <= 0 || config.max_restarts < 0)
      throw Error(ErrorCategory::config, entry.where() + ": '" + name +
                                             "' needs input_sample_rate >= 0, max_concurrency >= 1, timeout_seconds > 0, "
                                             "max_restarts >= 0");
    return models::make_process_model(config);
  }
  throw Error(ErrorCategory::internal, entry.where() + ": model class '" + entry.class_id + "' has no loader");
}

}  // namespace aeval::pipeline
