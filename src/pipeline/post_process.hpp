#pragma once
// Text transforms applied to predictions (and, for normalizers, references) before scoring.
#include <functional>
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
  nlohmann::json identity;
  std::vector<std::string> notes;
};
PostProcess load_post_process(const Registry& registry, const std::string& name);

// Post-process classes register here (registry/factory.hpp).
using PostProcessClasses = ClassFactories<PostProcess>;

}  // namespace aeval::pipeline
