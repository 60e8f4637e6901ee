// UltraEval-Audio's RTFExtractor (audio_evals/evaluator/rtf.py at 9b69da6): the real-time factor a TTS model
// reports in its answer, a JSON object such as {"audio": "out.wav", "RTF": 0.5}. The answer is read as
// Python's json.loads reads it (NaN and Infinity too) and the value under rtf_key kept as it is, whatever
// its type; where Python raises (not JSON, not an object, no such key) the sample fails with its error.
#include <fmt/format.h>

#include <string>

#include "aeval/text/python_values.hpp"
#include "uea/uea_evaluator.hpp"

namespace aeval::pipeline {
namespace {

using Value = UeaEvaluator::Value;

// data[key] on what json.loads returned, or Python's TypeError for a value that is no dict.
Value python_item(const Value& data, const std::string& key) {
  if (data.is_object()) {
    if (!data.contains(key)) python_error("KeyError", text::python_repr(Value(key)));
    return data.at(key);
  }
  if (data.is_array()) python_error("TypeError", "list indices must be integers or slices, not str");
  if (data.is_string()) python_error("TypeError", "string indices must be integers, not 'str'");
  python_error("TypeError", fmt::format("'{}' object is not subscriptable", text::python_type_name(data)));
}

const EvaluatorClasses::Registration kRtf{
    {registry::Kind::evaluator, "uea-rtf",
     "UltraEval-Audio's RTFExtractor: the real-time factor under rtf_key of the answer's JSON object, as reported",
     {registry::arg::text("rtf_key", "RTF", "the key of the answer's JSON object holding the real-time factor"),
      label_field_arg()},
     {},
     {registry::UeaClass{"audio_evals.evaluator.rtf.RTFExtractor"}}},
    [](const registry::Args& args, const registry::Registry&, const std::shared_ptr<ScoringModels>&) {
      return uea_evaluator(args, [key = args.text("rtf_key")](const Value& pred, const Value&, const nlohmann::json&) {
        // aeval's answers are text, which UEA parses (its dict branch is for answers that already are one).
        const auto data = text::python_json_loads(text::python_str(pred));
        if (!data) python_error("JSONDecodeError", "the answer is not a JSON document (json.loads)");
        return Value{{"RTF", python_item(*data, key)}, {"pred", pred}};
      });
    }};

}  // namespace
}  // namespace aeval::pipeline
