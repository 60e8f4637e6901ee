#pragma once
// An entry's `only: {field: value}` or `{field: [values]}`: the samples it takes, those whose field holds that value
// or one of those (compared as JSON values, as the YAML reads in Python: 1 is not "1"). Evaluators count by it (a
// column of a paper's table), datasets pair by it (RELATE-Pair's generated clips).
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "registry/args.hpp"

namespace aeval::datasets {

struct FieldFilter {
  std::string field;
  nlohmann::json value;  // as written: one value, or an array of them
  bool admits(const nlohmann::json& field_value) const;
  nlohmann::json to_json() const { return {{field, value}}; }
};

registry::ArgSpec field_filter_arg(const std::string& example);
std::optional<FieldFilter> field_filter(const registry::Args& args);

}  // namespace aeval::datasets
