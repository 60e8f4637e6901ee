#pragma once
// Resolving a task name (and command-line overrides) to the entries it binds.
#include <string>

#include "aeval/pipeline/task_spec.hpp"
#include "registry/factory.hpp"

namespace aeval::pipeline {

// `task` may be empty when the overrides name a dataset whose default task
// supplies the rest, or name dataset, model and evaluators themselves.
TaskSpec resolve_task(const Registry& registry, const std::string& task, const TaskOverrides& overrides = {});

// Task entries; their one class, `task`, reads its arguments into a TaskSpec.
using TaskClasses = ClassFactories<TaskSpec>;

}  // namespace aeval::pipeline
