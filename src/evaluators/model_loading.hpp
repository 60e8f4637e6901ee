#pragma once
// The model a registry entry describes (model classes register in src/models).
#include <memory>
#include <string>

#include "aeval/models/model.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

std::unique_ptr<models::Model> load_model(const registry::Registry& registry, const std::string& name);

}  // namespace aeval::pipeline
