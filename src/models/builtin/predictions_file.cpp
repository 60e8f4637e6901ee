#include "models/predictions_file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <unordered_map>

#include "util/sha256.hpp"
#include "util/untrusted_json.hpp"
#include "aeval/error.hpp"
#include "models/model_classes.hpp"

namespace aeval::models {

namespace {

class PredictionsFile final : public Model {
 public:
  explicit PredictionsFile(PredictionsFileConfig config) : config_(std::move(config)) {
    std::ifstream in(config_.path);
    if (!in) throw Error(ErrorCategory::data, config_.path.string() + ": cannot open the predictions file");
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      const std::string where = fmt::format("{}:{}", config_.path.string(), number);
      nlohmann::json row;
      try {
        row = parse_untrusted_json(line, /*allow_exceptions=*/false);
      } catch (const JsonTooDeep& e) {
        throw Error(ErrorCategory::data, where + ": " + e.what());
      }
      if (!row.is_object()) throw Error(ErrorCategory::data, where + ": not a JSON object");
      if (!row.contains(config_.id_field) || !row.contains(config_.prediction_field) ||
          !row[config_.prediction_field].is_string())
        throw Error(ErrorCategory::data, fmt::format("{}: needs '{}' and a string '{}'", where, config_.id_field,
                                                     config_.prediction_field));
      const auto& id = row[config_.id_field];
      const std::string key = id.is_string() ? id.get<std::string>() : id.dump();
      if (!answers_.emplace(key, row[config_.prediction_field].get<std::string>()).second)
        throw Error(ErrorCategory::data, fmt::format("{}: duplicate id '{}'", where, key));
    }
    fingerprint_ = sha256_of_file(config_.path);
  }

  // A lookup: answered at once, nothing to wait for.
  void infer(Request request, Completion done) override {
    complete(done, [&] {
      const auto it = answers_.find(request.sample_id);
      if (it == answers_.end())
        throw Error(ErrorCategory::model,
                    fmt::format("{} has no prediction for sample '{}'", config_.path.string(), request.sample_id));
      Response r;
      r.text = it->second;
      return r;
    });
  }
  int input_sample_rate() const override { return 0; }
  int max_concurrency() const override { return 1; }
  nlohmann::json identity() const override {
    return {{"backend", "predictions_file"}, {"path", std::filesystem::absolute(config_.path).string()},
            {"sha256", fingerprint_}, {"rows", answers_.size()}};
  }

 private:
  PredictionsFileConfig config_;
  std::unordered_map<std::string, std::string> answers_;
  std::string fingerprint_;
};

}  // namespace

std::unique_ptr<Model> make_predictions_file(const PredictionsFileConfig& config) {
  return std::make_unique<PredictionsFile>(config);
}

namespace {
namespace arg = registry::arg;
const PredictionsFileConfig kPredictionsDefaults;
const ModelClasses::Registration kPredictionsFileClass{
    {registry::Kind::model, "predictions_file",
     "Answers a model produced elsewhere, read from a JSONL file by sample id (score existing outputs)",
     {arg::required_path("path", "the JSONL file, relative to this YAML file"),
      arg::text("id_field", kPredictionsDefaults.id_field, "field with the sample id"),
      arg::text("prediction_field", kPredictionsDefaults.prediction_field, "field with the model's answer")}},
    [](const registry::Args& args) {
      PredictionsFileConfig config;
      config.path = args.path("path");
      config.id_field = args.text("id_field");
      config.prediction_field = args.text("prediction_field");
      return make_predictions_file(config);
    }};
}  // namespace

}  // namespace aeval::models
