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
  nlohmann::json identity;
  std::vector<std::string> notes;
};
PostProcess load_post_process(const Registry& registry, const std::string& name);

// Post-process classes register here (registry/factory.hpp).
using PostProcessClasses = ClassFactories<PostProcess>;

}  // namespace aeval::pipeline
