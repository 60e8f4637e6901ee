#include "uea/uea_scoring.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"
#include "uea/uea_evaluator.hpp"

namespace aeval::pipeline::uea_scoring {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::UeaClass;

double python_float(const Value& v) {
  if (v.is_number()) return v.get<double>();
  if (v.is_boolean()) return v.get<bool>() ? 1 : 0;
  if (v.is_string()) {
    const std::string s = text::strip(v.get<std::string>());
    std::string lowered = text::lower(s);
    for (const char* special : {"nan", "+nan", "-nan"})
      if (lowered == special) return std::nan("");
    for (const char* special : {"inf", "+inf", "infinity", "+infinity"})
      if (lowered == special) return INFINITY;
    if (lowered == "-inf" || lowered == "-infinity") return -INFINITY;
    std::string digits = s;
    digits.erase(std::remove(digits.begin(), digits.end(), '_'), digits.end());
    char* end = nullptr;
    const double d = std::strtod(digits.c_str(), &end);
    if (!digits.empty() && end == digits.c_str() + digits.size() && digits.find_first_of("xXpP") == std::string::npos)
      return d;
    python_error("ValueError", "could not convert string to float: " + text::python_repr(v));
  }
  python_error("TypeError", "float() argument must be a string or a real number");
}

std::string text_of(const Value& v, const char* what) {
  if (!v.is_string()) python_error("AttributeError", fmt::format("'{}' has no string methods ({})", v.type_name(), what));
  return v.get<std::string>();
}

ArgSpec spelling_table_arg() {
  return arg::required_path("spelling_table", "UEA's audio_evals/lib/text_normalization/english.json");
}

UeaClass uea_class(std::string path, bool spelling) {
  if (!spelling) return {std::move(path)};
  return {std::move(path), [](const YAML::Node& uea, const std::filesystem::path& root) -> std::optional<YAML::Node> {
            YAML::Node args = YAML::Clone(uea);
            if (!args.IsMap()) args = YAML::Node(YAML::NodeType::Map);
            args["spelling_table"] = (root / "audio_evals/lib/text_normalization/english.json").string();
            return args;
          }};
}

std::string zhconv_difference(bool applies) {
  return applies ? "Chinese made simplified by OpenCC's t2s, not zhconv's zh-cn" : "";
}

std::string lang_of(const YAML::Node& args) { return args["lang"] && args["lang"].IsScalar() ? args["lang"].Scalar() : ""; }

std::vector<ArgSpec> with_hosted_class_args(const char* example, std::vector<ArgSpec> more) {
  std::vector<ArgSpec> out{
      arg::required_text("uea_class", std::string("the class path, e.g. ") + example),
      arg::required_path("uea_root", "the UltraEval-Audio tree holding the class"),
      arg::map("uea_args", "the entry's arguments, as UEA passes them to the class", false),
      arg::text("python", "", "the interpreter hosting UEA's framework (default: $AEVAL_UEA_PYTHON, else python3)")};
  for (auto& a : more) out.push_back(std::move(a));
  return out;
}

uea::UeaClassProcess hosted_class(const Args& args, const char* role) {
  uea::UeaClassProcess spec;
  spec.name = args.entry().name;
  spec.role = role;
  spec.class_path = args.text("uea_class");
  spec.root = std::filesystem::absolute(args.path("uea_root")).lexically_normal();
  spec.args = args.given("uea_args") ? registry::yaml_as_python(args.node("uea_args")) : Value::object();
  spec.python = uea::uea_host_python(args.text("python"));
  return spec;
}

}  // namespace aeval::pipeline::uea_scoring
