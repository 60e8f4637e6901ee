#include "models/model_classes.hpp"
#include "evaluators/model_loading.hpp"

namespace aeval::pipeline {

using registry::Kind;
using registry::Registry;

std::unique_ptr<models::Model> load_model(const Registry& registry, const std::string& name) {
  return models::ModelClasses::make(registry.get(Kind::model, name), Kind::model);
}

}  // namespace aeval::pipeline
