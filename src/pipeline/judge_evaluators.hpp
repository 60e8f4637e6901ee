#pragma once
// The language-model judge evaluators (src/pipeline/judge_evaluators.cpp).
#include <memory>

#include "aeval/pipeline/args.hpp"
#include "aeval/pipeline/components.hpp"

namespace aeval::pipeline {

// The evaluator `entry` describes when its class is a judge's (aqascore,
// rubric_judge, caption_judge, judge_accuracy, human_correlation); null otherwise.
std::unique_ptr<Evaluator> load_judge_evaluator(const Registry& registry, const Entry& entry,
                                                const std::shared_ptr<ScoringModels>& scoring);

}  // namespace aeval::pipeline
