#include "aeval/error.hpp"
#include "aeval/pipeline/args.hpp"
#include "aeval/pipeline/components.hpp"

namespace aeval::pipeline {

metrics::EditCounts ErrorRateEvaluator::count(const std::string& reference, const std::string& prediction) const {
  return characters ? metrics::align(metrics::jiwer_chars(reference), metrics::jiwer_chars(prediction))
                    : metrics::align(metrics::jiwer_words(reference), metrics::jiwer_words(prediction));
}

nlohmann::json ErrorRateEvaluator::identity() const {
  return {{"class", "error_rate"}, {"unit", characters ? "chars" : "words"},
          {"reference", characters ? "jiwer 4.0.0 process_characters (cer_default)"
                                   : "jiwer 4.0.0 process_words (wer_default)"},
          {"corpus", "sum of edits over sum of reference tokens"}};
}

ErrorRateEvaluator load_evaluator(const Registry& registry, const std::string& name) {
  const Entry& entry = registry.get(Kind::evaluator, name);
  Args args(entry);
  if (entry.class_id != "error_rate")
    throw Error(ErrorCategory::config, entry.where() + ": unknown evaluator class '" + entry.class_id + "'" +
                                           suggestion_suffix(entry.class_id, {"error_rate"}));
  const std::string unit = args.string("unit", "words");
  args.reject_unknown();
  if (unit != "words" && unit != "chars")
    throw Error(ErrorCategory::config, entry.where() + ": argument 'unit' of '" + name + "' must be words or chars");
  return ErrorRateEvaluator{name, unit == "chars"};
}

}  // namespace aeval::pipeline
