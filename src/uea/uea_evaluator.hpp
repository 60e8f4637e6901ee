#pragma once
// One of UltraEval-Audio's evaluators as an aeval evaluator. UEA's Evaluator.__call__(pred, ref, **row)
// (audio_evals/evaluator/base.py) starts from {"pred": pred, "ref": ref} and updates it with the dict
// its _eval returns; a sample keeps that dict, keys in UEA's order, for UEA's aggregations to read.
// The classes that stand for UEA's evaluators (uea_*_evaluators.cpp and the uea_*.cpp beside them) are each
// an _eval given to this adapter.
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "evaluators/evaluator.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

class UeaEvaluator final : public Evaluator {
 public:
  using Value = nlohmann::ordered_json;
  // _eval(pred, label, **row): the evaluator's own keys, in its order.
  using Eval = std::function<Value(const Value& pred, const Value& label, const nlohmann::json& row)>;
  UeaEvaluator(std::string class_id, Eval eval, std::string label_field);

  // __call__: {"pred": pred, "ref": label} updated with _eval's dict.
  Value call(const Value& pred, const Value& label, const nlohmann::json& row) const;

  // {"value": the first number of the dict past pred and ref, "uea": the dict, "uea_keys": its keys in order}.
  nlohmann::json score(const Scored& s) const override;
  // A label field is read from the row as UEA reads it (row.get(ref_col, "")), not from the sample's reference.
  bool compares_with_references() const override { return label_field_.empty(); }
  nlohmann::json identity() const override;

 private:
  std::string class_id_;
  Eval eval_;
  std::string label_field_;
};

// The evaluator an entry of a UEA evaluator class describes, computing `eval`.
std::unique_ptr<Evaluator> uea_evaluator(const registry::Args& args, UeaEvaluator::Eval eval);

// The argument every UEA evaluator class declares: the row field UEA's ref_col names.
registry::ArgSpec label_field_arg();

// What Python raises, as it prints it: aeval::Error (data) "<type>: <message>", which fails the sample.
[[noreturn]] void python_error(const std::string& type, const std::string& message);

}  // namespace aeval::pipeline
