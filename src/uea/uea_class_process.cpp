#include "uea/uea_class_process.hpp"

#include <fmt/format.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>

#include "aeval/error.hpp"
#include "models/process_model.hpp"
#include "registry/registry.hpp"
#include "uea/uea_registry.hpp"
#include "uea/uea_environment.hpp"
#include "util/sha256.hpp"
#include "util/subprocess.hpp"

namespace aeval::uea {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// Threads the bridge calls the class from: as many requests as a run sends at once (--workers), as UEA's
// workers share one instance (an OfflineModel's own lock still takes them one at a time).
constexpr int kBridgeThreads = 32;

fs::path bridge_script() {
  if (const char* path = std::getenv("AEVAL_UEA_BRIDGE"); path && *path) return path;
  return AEVAL_UEA_BRIDGE;
}

std::string last_line(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  const auto newline = text.rfind('\n');
  return newline == std::string::npos ? text : text.substr(newline + 1);
}

// What the bridge's describe mode says of a class: {"isolated": {script_path, pre_command} | null, ...}.
Json describe_class(const std::string& python, const fs::path& root, const std::string& class_path,
                    const std::string& name) {
  const detail::Finished f = detail::run_to_end(
      {python, bridge_script().string(), "describe", "--uea-root", root.string(), "--class", class_path});
  if (WIFEXITED(f.status) && WEXITSTATUS(f.status) == 127 && f.out.empty())
    throw Error(ErrorCategory::model, fmt::format("'{}': cannot run {} to host UltraEval-Audio's class {} (set "
                                                  "$AEVAL_UEA_PYTHON, or --set {}.python=PATH)",
                                                  name, python, class_path, name));
  const Json reply = Json::parse(last_line(f.out), nullptr, false);
  if (reply.is_object() && reply.contains("error")) {
    const std::string hint = reply.value("hint", "");
    throw Error(ErrorCategory::model, fmt::format("'{}': UltraEval-Audio's class {} cannot be loaded by {}: {}{}", name,
                                                  class_path, python, reply.value("error", ""),
                                                  hint.empty() ? "" : " (" + hint + ")"));
  }
  if (!reply.is_object() || !WIFEXITED(f.status) || WEXITSTATUS(f.status) != 0)
    throw Error(ErrorCategory::model, fmt::format("'{}': {} could not describe UltraEval-Audio's class {}: {}", name,
                                                  python, class_path, last_line(f.err)));
  return reply;
}

// Builds the environment of an @isolated class, as UEA would before starting its script.
void prepare_environment(const Json& described, const Json& args, const fs::path& root, const std::string& class_path,
                         const std::string& name) {
  if (!described["isolated"].is_object()) return;
  for (const char* required : {"env_path", "requirements_path"})
    if (!args.contains(required) || !args[required].is_string())
      throw Error(ErrorCategory::config, fmt::format("'{}': UltraEval-Audio's @isolated class {} needs the argument {}",
                                                     name, class_path, required));
  ensure_uea_environment(root,
                         {args["env_path"].get<std::string>(), args["requirements_path"].get<std::string>(),
                          described["isolated"].value("pre_command", "")},
                         name);
}

}  // namespace

YAML::Node uea_class_args(const YAML::Node& uea_args, const fs::path& uea_root, const std::string& path) {
  std::string module = path.substr(0, path.rfind('.'));
  std::replace(module.begin(), module.end(), '.', '/');
  if (fs::is_directory(uea_root / "audio_evals") && !fs::is_regular_file(uea_root / (module + ".py")) &&
      !fs::is_regular_file(uea_root / module / "__init__.py"))
    throw Error(ErrorCategory::config, "UltraEval-Audio's own code has no such module at this commit");
  YAML::Node args(YAML::NodeType::Map);
  args["uea_class"] = path;
  args["uea_root"] = fs::absolute(uea_root).lexically_normal().string();
  args["uea_args"] = uea_args.IsMap() ? YAML::Clone(uea_args) : YAML::Node(YAML::NodeType::Map);
  return args;
}

std::string uea_host_python(const std::string& given) {
  if (!given.empty()) return given;
  if (const char* python = std::getenv("AEVAL_UEA_PYTHON"); python && *python) return python;
  return "python3";
}

std::unique_ptr<models::Model> start_uea_class(const UeaClassProcess& spec, Json& identity) {
  const Json described = describe_class(spec.python, spec.root, spec.class_path, spec.name);
  prepare_environment(described, spec.args, spec.root, spec.class_path, spec.name);
  if (!spec.models_used.empty()) {  // models the class builds itself through UEA's registry
    const UeaRegistry registry(spec.root);
    for (const auto& model : spec.models_used) {
      if (!registry.entries("model").count(model)) continue;  // UEA's own KeyError, when the class asks for it
      const UeaEntry& entry = registry.get("model", model);
      const Json args = registry::yaml_as_python(entry.args);
      prepare_environment(describe_class(spec.python, spec.root, entry.class_path, model), args, spec.root,
                          entry.class_path, model);
    }
  }

  models::ProcessModelConfig config;
  config.name = spec.name;
  config.command = {spec.python, bridge_script().string(), "serve", "--uea-root", spec.root.string(), "--class",
                    spec.class_path, "--args", spec.args.dump(), "--role", spec.role, "--concurrency",
                    std::to_string(std::max(spec.max_concurrency, kBridgeThreads))};
  if (spec.gpu_id) {
    config.command.push_back("--gpu-id");
    config.command.push_back(std::to_string(*spec.gpu_id));
  }
  config.input_sample_rate = 0;
  config.max_concurrency = spec.max_concurrency;
  config.timeout_seconds = spec.timeout_seconds;
  config.max_restarts = spec.max_restarts;
  config.start_at_once = true;

  std::string module = spec.class_path.substr(0, spec.class_path.rfind('.'));
  std::replace(module.begin(), module.end(), '.', '/');
  identity = {{"backend", "uea"}, {"name", spec.name}, {"class", spec.class_path}, {"args", spec.args},
              {"bridge", sha256_of_file(bridge_script())}};
  if (fs::is_regular_file(spec.root / (module + ".py")))
    identity["module_sha256"] = sha256_of_file(spec.root / (module + ".py"));
  if (described["isolated"].is_object()) identity["isolated"] = described["isolated"];
  try {
    return models::make_process_model(config);
  } catch (const Error& e) {
    throw Error(e.category(), fmt::format("'{}' (UltraEval-Audio's {}): {}", spec.name, spec.class_path, e.what()));
  }
}

}  // namespace aeval::uea
