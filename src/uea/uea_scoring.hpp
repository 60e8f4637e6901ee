#pragma once
// What UltraEval-Audio's evaluators and aggregations (audio_evals/evaluator/*.py, agg/base.py at 9b69da6) share as
// aeval classes, so a UEA task scores as UEA scores it (uea_*_evaluators.cpp, uea_aggregations.cpp). A UEA evaluator
// keeps, per sample, the dict UEA keeps ({"pred", "ref"} updated with its own keys, in UEA's order); a UEA
// aggregation computes its keys from those dicts. Python's semantics are kept where they decide a number (str() of
// labels, float() of numeric labels, str.lower/strip, code-point lengths); an exception in an evaluator fails that
// sample, one in an aggregation gives {"error": ...}, as in UEA.
#include <yaml-cpp/yaml.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "evaluators/evaluator.hpp"
#include "evaluators/scoring_models.hpp"
#include "registry/args.hpp"
#include "uea/uea_class_process.hpp"

namespace aeval::pipeline::uea_scoring {

using Value = nlohmann::ordered_json;
using Made = std::unique_ptr<Evaluator>;
using Scoring = std::shared_ptr<ScoringModels>;

// Python's float(x) of an answer or label (a number, or text that reads as one).
double python_float(const Value& v);
// The text of a value a UEA class calls string methods on (AttributeError where it is none).
std::string text_of(const Value& v, const char* what);

registry::ArgSpec spelling_table_arg();
// UEA's own arguments, and the spelling table UEA reads from its tree where it normalizes English.
registry::UeaClass uea_class(std::string path, bool spelling = false);

// What aeval's parts do differently from UEA's (ClassSpec::differs_from_uea), each worded once.
std::string zhconv_difference(bool applies);
std::string lang_of(const YAML::Node& args);

// The arguments of an aeval class hosting one of UEA's Python classes (uea::uea_class_args writes them), then `more`.
std::vector<registry::ArgSpec> with_hosted_class_args(const char* example, std::vector<registry::ArgSpec> more);
uea::UeaClassProcess hosted_class(const registry::Args& args, const char* role);

}  // namespace aeval::pipeline::uea_scoring
