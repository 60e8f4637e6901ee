// UltraEval-Audio's own model classes, run as UEA runs them (docs/uea.md, "UEA's model entries"): any
// model entry whose class has no native aeval counterpart becomes a `uea_model`, UEA's class hosted by
// aeval's bridge (uea_class_process.hpp), started before the first sample. Each request carries the prompt as UEA's
// Prompt.load renders it, its audio values naming files as they lie (clips inside a container are written
// out first, as UEA writes its Hub audio to files).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iterator>
#include <regex>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "models/model_classes.hpp"
#include "registry/classes.hpp"
#include "uea/uea_class_process.hpp"

namespace aeval::uea {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

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
  UeaClassProcess spec;
  spec.name = args.entry().name;
  spec.class_path = args.text("uea_class");
  spec.root = fs::absolute(args.path("uea_root")).lexically_normal();
  spec.args = args.given("uea_args") ? registry::yaml_as_python(args.node("uea_args")) : Json::object();
  spec.python = uea_host_python(args.given("python") ? args.text("python") : "");
  spec.gpu_id = args.optional_integer("gpu_id");
  spec.max_concurrency = args.integer("max_concurrency");
  spec.timeout_seconds = args.number("timeout_seconds");
  spec.max_restarts = args.integer("max_restarts");
  Json identity;
  std::unique_ptr<models::Model> process = start_uea_class(spec, identity);
  char pattern[] = "/tmp/aeval-uea-XXXXXX";
  if (!mkdtemp(pattern)) throw Error(ErrorCategory::data, "UltraEval-Audio model: cannot create a temporary folder");
  return std::make_unique<UeaModel>(std::move(process), std::move(identity), pattern);
}

// Any class of UEA's models package that no aeval class stands for natively: the entry's arguments are kept as
// written, for UEA's class to take. The module must be in UEA's tree (a registry-only folder cannot tell).
std::optional<YAML::Node> uea_any_model(const YAML::Node& uea_args, const fs::path& uea_root, const std::string& path) {
  YAML::Node args = uea_class_args(uea_args, uea_root, path);
  std::string module = path.substr(0, path.rfind('.'));
  std::replace(module.begin(), module.end(), '.', '/');
  // The scripts the module's @isolated classes start: one that is missing lies in a git submodule UEA's tree
  // leaves empty (seven of audio_evals/lib/ at the pinned commit), so the class cannot run from it.
  if (std::ifstream source(uea_root / (module + ".py")); source) {
    const std::string code((std::istreambuf_iterator<char>(source)), std::istreambuf_iterator<char>());
    static const std::regex script(R"re(@isolated\(\s*"([^"]+)")re");
    for (auto it = std::sregex_iterator(code.begin(), code.end(), script); it != std::sregex_iterator(); ++it)
      if (!fs::exists(uea_root / (*it)[1].str()))
        throw Error(ErrorCategory::config,
                    fmt::format("its script {} is not in the tree: {} is a git submodule that UltraEval-Audio's own "
                                "checkout leaves empty; clone that project there (or give --uea-dir a tree that has it)",
                                (*it)[1].str(), fs::path((*it)[1].str()).parent_path().string()));
  }
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
