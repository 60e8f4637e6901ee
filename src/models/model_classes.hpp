#pragma once
// Model classes register themselves here, each in its own file (see
// registry/factory.hpp); `load_model` builds any of them from its entry.
#include <memory>

#include "aeval/models/model.hpp"
#include "registry/factory.hpp"

namespace aeval::models {

using ModelClasses = registry::ClassFactories<std::unique_ptr<Model>>;

}  // namespace aeval::models
