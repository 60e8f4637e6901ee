#include "aeval/error.hpp"
#include "aeval/models/pocketsphinx_asr.hpp"
#include "aeval/pipeline/args.hpp"
#include "aeval/pipeline/components.hpp"

namespace aeval::pipeline {

std::unique_ptr<models::Model> load_model(const Registry& registry, const std::string& name) {
  const Entry& entry = registry.get(Kind::model, name);
  Args args(entry);
  if (entry.class_id == "pocketsphinx") {
    models::PocketSphinxConfig config;
    config.acoustic_model = args.string("acoustic_model", config.acoustic_model.string());
    config.language_model = args.string("language_model", config.language_model.string());
    config.dictionary = args.string("dictionary", config.dictionary.string());
    config.max_concurrency = args.integer("max_concurrency", config.max_concurrency);
    args.reject_unknown();
    return models::make_pocketsphinx_asr(config);
  }
  throw Error(ErrorCategory::config, entry.where() + ": unknown model class '" + entry.class_id + "'" +
                                         suggestion_suffix(entry.class_id, {"pocketsphinx"}));
}

}  // namespace aeval::pipeline
