// UltraEval-Audio's own model classes, run as UEA runs them (docs/uea.md, "UEA's model entries"): any
// model entry whose class has no native aeval counterpart becomes a `uea_model`, a process model whose
// process is uea_model_bridge.py hosting UEA's class, built from UEA's tree with the entry's arguments.
// Before the first sample, aeval asks the bridge whether the class is @isolated and builds its environment
// as UEA's env_setup would (uea_environment.hpp), then starts the bridge and waits for the class to load,
// so a model that cannot run here stops the run with one line. Each request carries the prompt as UEA's
// Prompt.load renders it, its audio values naming files as they lie (clips inside a container are written
// out first, as UEA writes its Hub audio to files).
#include <fmt/format.h>
#include <sys/wait.h>

#include <atomic>
#include <cstdlib>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "models/model_classes.hpp"
#include "models/process_model.hpp"
#include "registry/classes.hpp"
#include "uea/uea_environment.hpp"
#include "util/sha256.hpp"
#include "util/subprocess.hpp"

namespace aeval::uea {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

fs::path bridge_script() {
  if (const char* path = std::getenv("AEVAL_UEA_BRIDGE"); path && *path) return path;
  return AEVAL_UEA_BRIDGE;
}

// The interpreter hosting UEA's classes: the entry's `python`, else $AEVAL_UEA_PYTHON, else python3.
std::string host_python(const registry::Args& args) {
  if (args.given("python")) return args.text("python");
  if (const char* python = std::getenv("AEVAL_UEA_PYTHON"); python && *python) return python;
  return "python3";
}

// What the bridge's describe mode says of the class: {"isolated": {script_path, pre_command} | null, ...}.
Json describe_class(const std::string& python, const fs::path& root, const std::string& class_path,
                    const std::string& model_name) {
  const detail::Finished f = detail::run_to_end(
      {python, bridge_script().string(), "describe", "--uea-root", root.string(), "--class", class_path});
  const Json reply = Json::parse(f.out, nullptr, false);
  if (WIFEXITED(f.status) && WEXITSTATUS(f.status) == 127 && f.out.empty())
    throw Error(ErrorCategory::model, fmt::format("model '{}': cannot run {} to host UltraEval-Audio's class {} (set "
                                                  "$AEVAL_UEA_PYTHON or --set {}.python=PATH)",
                                                  model_name, python, class_path, model_name));
  if (reply.is_object() && reply.contains("error")) {
    const std::string hint = reply.value("hint", "");
    throw Error(ErrorCategory::model, fmt::format("model '{}': UltraEval-Audio's class {} cannot be loaded by {}: {}{}",
                                                  model_name, class_path, python, reply.value("error", ""),
                                                  hint.empty() ? "" : " (" + hint + ")"));
  }
  if (!reply.is_object() || !WIFEXITED(f.status) || WEXITSTATUS(f.status) != 0) {
    std::string err = f.err;
    while (!err.empty() && err.back() == '\n') err.pop_back();
    throw Error(ErrorCategory::model, fmt::format("model '{}': {} could not describe UltraEval-Audio's class {}: {}",
                                                  model_name, python, class_path,
                                                  err.substr(err.rfind('\n') == std::string::npos ? 0 : err.rfind('\n') + 1)));
  }
  return reply;
}

// Replaces every string of `value` equal to `from` with `to`.
void replace_strings(Json& value, const std::string& from, const std::string& to) {
  if (value.is_string() && value.get_ref<const std::string&>() == from) value = to;
  if (value.is_structured())
    for (auto& item : value) replace_strings(item, from, to);
}

class UeaModel final : public models::BlockingModel {
 public:
  UeaModel(std::unique_ptr<models::Model> process, Json identity, fs::path clips_dir)
      : process_(std::move(process)), identity_(std::move(identity)), clips_dir_(std::move(clips_dir)) {}

  ~UeaModel() override {
    std::error_code ignored;
    fs::remove_all(clips_dir_, ignored);
  }

  int input_sample_rate() const override { return 0; }  // UEA's classes read their audio files themselves
  bool reads_audio_files() const override { return true; }
  int max_concurrency() const override { return process_->max_concurrency(); }
  nlohmann::json identity() const override { return nlohmann::json(identity_); }
  void set_log(std::function<void(const nlohmann::json&)> sink) override { process_->set_log(std::move(sink)); }

 protected:
  models::Response compute(const models::Request& request) override {
    if (request.structure.is_null())
      throw Error(ErrorCategory::config,
                  fmt::format("sample '{}': UltraEval-Audio's model classes take a UEA prompt (a jinja2 prompt, "
                              "such as UEA's own prompt entries), and this task's prompt is not one",
                              request.sample_id));
    models::Request sent = request;
    std::vector<fs::path> written;
    struct Cleanup {
      std::vector<fs::path>& files;
      ~Cleanup() {
        std::error_code ignored;
        for (const auto& f : files) fs::remove(f, ignored);
      }
    } cleanup{written};
    for (const auto& file : request.audio_files) {
      fs::path given = file;
      if (!fs::is_regular_file(given)) {  // a clip inside a container (a Hub Parquet row): written out, as UEA does
        written.push_back(clips_dir_ / fmt::format("{}.wav", next_clip_++));
        write_wav(written.back(), decode_audio(file));
        given = written.back();
      }
      replace_strings(sent.structure, file.string(), fs::absolute(given).lexically_normal().string());
    }
    return process_->infer_and_wait(std::move(sent));
  }

 private:
  std::unique_ptr<models::Model> process_;
  Json identity_;
  fs::path clips_dir_;
  std::atomic<std::uint64_t> next_clip_{0};
};

std::unique_ptr<models::Model> make_uea_model(const registry::Args& args) {
  const std::string name = args.entry().name;
  const std::string class_path = args.text("uea_class");
  const fs::path root = fs::absolute(args.path("uea_root")).lexically_normal();
  Json uea_args = args.given("uea_args") ? registry::yaml_as_python(args.node("uea_args")) : Json::object();
  const std::string python = host_python(args);

  const Json described = describe_class(python, root, class_path, name);
  if (described["isolated"].is_object()) {
    for (const char* required : {"env_path", "requirements_path"})
      if (!uea_args.contains(required) || !uea_args[required].is_string())
        args.fail(fmt::format("UltraEval-Audio's @isolated class {} needs the argument {}", class_path, required));
    ensure_uea_environment(root,
                           {uea_args["env_path"].get<std::string>(), uea_args["requirements_path"].get<std::string>(),
                            described["isolated"].value("pre_command", "")},
                           name);
  }

  models::ProcessModelConfig config;
  config.name = name;
  config.command = {python, bridge_script().string(), "serve", "--uea-root", root.string(), "--class", class_path,
                    "--args", uea_args.dump(), "--concurrency", std::to_string(args.integer("max_concurrency"))};
  if (const auto gpu = args.optional_integer("gpu_id")) {
    config.command.push_back("--gpu-id");
    config.command.push_back(std::to_string(*gpu));
  }
  config.input_sample_rate = 0;
  config.max_concurrency = args.integer("max_concurrency");
  config.timeout_seconds = args.number("timeout_seconds");
  config.max_restarts = args.integer("max_restarts");
  config.start_at_once = true;

  // What answers depend on: the class, its arguments and its module's code, and the bridge.
  std::string module = class_path.substr(0, class_path.rfind('.'));
  std::replace(module.begin(), module.end(), '.', '/');
  Json identity = {{"backend", "uea"}, {"name", name}, {"class", class_path}, {"args", uea_args},
                   {"bridge", sha256_of_file(bridge_script())}};
  if (fs::is_regular_file(root / (module + ".py"))) identity["module_sha256"] = sha256_of_file(root / (module + ".py"));
  if (described["isolated"].is_object()) identity["isolated"] = described["isolated"];

  char pattern[] = "/tmp/aeval-uea-XXXXXX";
  if (!mkdtemp(pattern)) throw Error(ErrorCategory::data, "UltraEval-Audio model: cannot create a temporary folder");
  try {
    return std::make_unique<UeaModel>(models::make_process_model(config), std::move(identity), pattern);
  } catch (const Error& e) {
    std::error_code ignored;
    fs::remove_all(pattern, ignored);
    throw Error(e.category(), fmt::format("model '{}' (UltraEval-Audio's {}): {}", name, class_path, e.what()));
  }
}

// Any class of UEA's models package that no aeval class stands for natively: the entry's arguments are kept as
// written, for UEA's class to take. The module must be in UEA's tree (a registry-only folder cannot tell).
std::optional<YAML::Node> uea_any_model(const YAML::Node& uea_args, const fs::path& uea_root, const std::string& path) {
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

namespace arg = registry::arg;
const models::ModelClasses::Registration kUeaModelClass{
    {registry::Kind::model, "uea_model",
     "One of UltraEval-Audio's model classes, built from UEA's tree with its entry's arguments and called as UEA "
     "calls it, in the environment UEA's @isolated builds (docs/uea.md)",
     {arg::required_text("uea_class", "the class path, e.g. audio_evals.models.mini_cpm.MiniCPMo"),
      arg::required_path("uea_root", "the UltraEval-Audio tree holding the class"),
      arg::map("uea_args", "the entry's arguments, as UEA passes them to the class", false),
      arg::text("python", "python3",
                "the interpreter hosting UEA's framework and the class (default: $AEVAL_UEA_PYTHON, else python3)"),
      arg::optional_integer("gpu_id", "the GPU an @isolated class's script sees (CUDA_VISIBLE_DEVICES), as UEA's pool sets it"),
      arg::integer("max_concurrency", 1, "requests in flight (UEA's offline models answer one at a time)").at_least(1),
      arg::number("timeout_seconds", 3600, "for the class to load and for each answer").above(0),
      arg::integer("max_restarts", 3, "restarts after the class's process dies").at_least(0)},
     {},
     {{"audio_evals.models.*", {}, uea_any_model}}},
    make_uea_model};

}  // namespace

}  // namespace aeval::uea
