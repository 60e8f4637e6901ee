#pragma once
// Resolving a task name (and command-line overrides) to the entries it binds.
#include <map>
#include <string>
#include <vector>

#include "aeval/pipeline/task_spec.hpp"
#include "aeval/report/leaderboard.hpp"
#include "registry/factory.hpp"

namespace aeval::pipeline {

// `task` may be empty when the overrides name a dataset whose default task
// supplies the rest, or name dataset, model and evaluators themselves.
TaskSpec resolve_task(const registry::Registry& registry, const std::string& task, const TaskOverrides& overrides = {});

// Every suite the registry's tasks name, with its tasks in name order.
std::map<std::string, std::vector<std::string>> task_suites(const registry::Registry& registry);

// The tasks of one suite; throws aeval::Error (config) with a did-you-mean for an unknown one.
std::vector<std::string> suite_tasks(const registry::Registry& registry, const std::string& suite);

// A suite's leaderboard columns, in task-name order: a task's own, or one its `column` argument
// names, shared with the suite's other tasks of that column.
std::vector<report::SuiteColumn> suite_columns(const registry::Registry& registry, const std::string& suite);

// Task entries; their one class, `task`, reads its arguments into a TaskSpec.
using TaskClasses = registry::ClassFactories<TaskSpec>;

}  // namespace aeval::pipeline
