#include "uea/uea_evaluator.hpp"

#include "aeval/error.hpp"

namespace aeval::pipeline {

using nlohmann::json;
using Value = UeaEvaluator::Value;

UeaEvaluator::UeaEvaluator(std::string class_id, Eval eval, std::string label_field)
    : class_id_(std::move(class_id)), eval_(std::move(eval)), label_field_(std::move(label_field)) {}

Value UeaEvaluator::call(const Value& pred, const Value& label, const json& row) const {
  Value result{{"pred", pred}, {"ref", label}};
  const Value own = eval_(pred, label, row);
  for (const auto& [key, v] : own.items()) result[key] = v;
  return result;
}

json UeaEvaluator::score(const Scored& s) const {
  // UEA's reference is row.get(ref_col, ""), as the row stores it (a class label stays an integer).
  // The row as UEA's Huggingface dataset gives it: its columns, and WavPath, where it saved the audio.
  json row = s.sample.fields.is_object() ? s.sample.fields : json::object();
  if (!row.contains("WavPath") && !s.sample.audio.empty()) row["WavPath"] = s.sample.audio.string();
  Value label = s.sample.reference ? Value(*s.sample.reference) : Value("");
  if (!label_field_.empty()) label = row.contains(label_field_) ? Value(row[label_field_]) : Value("");
  const Value result = call(Value(s.prediction), label, row);
  json out{{"value", nullptr}, {"uea", json(result)}, {"uea_keys", json::array()}};
  for (const auto& [key, v] : result.items()) {
    out["uea_keys"].push_back(key);
    if (out["value"].is_null() && key != "pred" && key != "ref" && v.is_number()) out["value"] = json(v);
  }
  return out;
}

json UeaEvaluator::identity() const {
  return {{"name", name},
          {"class", class_id_},
          {"label_field", label_field_},
          {"reference", "UltraEval-Audio 9b69da6"}};
}

std::unique_ptr<Evaluator> uea_evaluator(const registry::Args& args, UeaEvaluator::Eval eval) {
  auto e = std::make_unique<UeaEvaluator>(args.entry().class_id, std::move(eval), args.text("label_field"));
  e->name = args.entry().name;
  return e;
}

registry::ArgSpec label_field_arg() {
  return registry::arg::text("label_field", "",
                             "the row field UEA's ref_col names, read as stored (`aeval uea run` sets it; '': the "
                             "reference text)");
}

void python_error(const std::string& type, const std::string& message) {
  throw Error(ErrorCategory::data, type + ": " + message);
}

}  // namespace aeval::pipeline
