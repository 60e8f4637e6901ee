#pragma once
// Text transforms applied to predictions (and, for normalizers, references) before scoring.
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "aeval/pipeline/sample.hpp"
#include "registry/factory.hpp"

namespace aeval::pipeline {

// A text transform applied to predictions (and, for normalizers, references)
// before scoring.
struct PostProcess {
  std::string name;
  bool references_too = false;
  std::function<std::string(const std::string&, const Sample&)> apply;
  // Post-processes whose answer may be a value other than text (UltraEval-Audio's JSON
  // extractors return what the JSON holds) give it here; `apply` then gives its Python str().
  std::function<nlohmann::ordered_json(const nlohmann::ordered_json&, const Sample&)> value;
  // The answer this post-process reads when the model spoke: from its audio file and its text (none: the text).
  std::function<std::string(const std::filesystem::path& audio, const std::string& text)> spoken_answer;
  nlohmann::json identity;
  std::vector<std::string> notes;
};
class ScoringModels;

// `scoring`: the models a post-process may ask (UltraEval-Audio's speech2text asks an ASR model),
// shared with the task's evaluators; none: such a post-process loads its own from `registry`,
// which must then outlive it.
PostProcess load_post_process(const registry::Registry& registry, const std::string& name,
                              const std::shared_ptr<ScoringModels>& scoring = nullptr);

// Post-process classes register here (registry/factory.hpp); most take their arguments alone.
using PostProcessClasses = registry::ClassFactories<PostProcess, const registry::Registry&, const std::shared_ptr<ScoringModels>&>;

}  // namespace aeval::pipeline
