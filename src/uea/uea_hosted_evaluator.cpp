// Any other of UltraEval-Audio's evaluator classes, UEA's own Python class hosted by aeval's bridge.
#include <fmt/format.h>

#include <memory>

#include "aeval/error.hpp"
#include "evaluators/evaluator.hpp"
#include "uea/uea_evaluator.hpp"
#include "uea/uea_scoring.hpp"
#include "registry/args.hpp"
#include "uea/uea_class_process.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Kind;
using registry::Registry;

namespace {

using namespace uea_scoring;
using nlohmann::json;

// Any other of UEA's evaluator classes: UEA's own class, built from its tree with the entry's arguments and
// hosted by aeval's bridge (uea/uea_class_process.hpp), called per sample as UEA's EvalTask calls it,
// __call__(pred, ref, **row); its dict is the sample's. The models it builds itself by name (model_name)
// have their @isolated environments built first.
const EvaluatorClasses::Registration kUeaPythonEvaluator{
    {Kind::evaluator, "uea-python-evaluator",
     "One of UltraEval-Audio's evaluator classes, built from UEA's tree with its entry's arguments and called per "
     "sample as UEA calls it, in a Python process of its own (docs/uea.md)",
     with_hosted_class_args("audio_evals.evaluator.ifeval.IFEval",
                            {arg::integer("max_concurrency", 4, "samples scored at once (UEA's workers share one "
                                                                "instance too)")
                                 .at_least(1),
                             label_field_arg()}),
     {},
     {{"audio_evals.evaluator.*", {}, uea::uea_class_args}}},
    [](const Args& args, const Registry&, const Scoring&) -> Made {
      uea::UeaClassProcess spec = hosted_class(args, "evaluator");
      spec.max_concurrency = args.integer("max_concurrency");
      for (const auto& [key, value] : spec.args.items())
        if (value.is_string()) spec.models_used.push_back(value.get<std::string>());
      Value identity;
      const std::shared_ptr<models::Model> process = uea::start_uea_class(spec, identity);
      return uea_evaluator(args, [process, name = spec.name](const Value& pred, const Value& label, const json& row) -> Value {
        models::Request request;
        request.sample_id = "evaluate";
        request.fields = {{"pred", json(pred)}, {"ref", json(label)}, {"kwargs", row}};
        Value result = Value::parse(process->infer_and_wait(std::move(request)).text, nullptr, false);
        if (!result.is_object())
          throw Error(ErrorCategory::model, fmt::format("evaluator '{}' answered something that is not a dict", name));
        return result;
      });
    }};

}  // namespace

}  // namespace aeval::pipeline
