#pragma once
// Resolving a task name (and command-line overrides) to the entries it binds.
#include <map>
#include <string>
#include <vector>

#include "aeval/error.hpp"
#include "aeval/pipeline/task_spec.hpp"
#include "aeval/report/leaderboard.hpp"
#include "registry/factory.hpp"

namespace aeval::pipeline {

// A task left without a dataset, model or evaluators: what is missing is a command-line option, so the CLI
// treats it as a usage error (exit status 2), as it does a missing --task.
class IncompleteTask : public Error {
 public:
  explicit IncompleteTask(const std::string& message) : Error(ErrorCategory::config, message) {}
};

// `task` may be empty when the overrides name a dataset whose default task
// supplies the rest, or name dataset, model and evaluators themselves. IncompleteTask when
// neither names one of the three.
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
