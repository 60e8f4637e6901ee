#include "datasets/field_filter.hpp"

#include <algorithm>

#include "registry/registry.hpp"

namespace aeval::datasets {

bool FieldFilter::admits(const nlohmann::json& field_value) const {
  if (!value.is_array()) return field_value == value;
  return std::find(value.begin(), value.end(), field_value) != value.end();
}

registry::ArgSpec field_filter_arg(const std::string& example) {
  return registry::arg::map("only",
                            "{field: value} or {field: [values]}: only the samples whose field has this value, or one "
                            "of these (e.g. " + example + ")",
                            false);
}

std::optional<FieldFilter> field_filter(const registry::Args& args) {
  if (!args.given("only")) return std::nullopt;
  const YAML::Node node = args.node("only");
  const auto scalars = [](const YAML::Node& values) {
    if (values.IsScalar()) return true;
    if (!values.IsSequence() || values.size() == 0) return false;
    for (const auto& v : values)
      if (!v.IsScalar()) return false;
    return true;
  };
  if (!node.IsMap() || node.size() != 1 || !scalars(node.begin()->second))
    args.fail("only: one field and the value it must have, or a list of them, e.g. {subset: music}");
  return FieldFilter{node.begin()->first.as<std::string>(),
                     nlohmann::json::parse(registry::yaml_as_python(node.begin()->second).dump())};
}

}  // namespace aeval::datasets
