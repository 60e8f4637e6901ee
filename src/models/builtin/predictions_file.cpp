#include "models/predictions_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>

#include <cstring>
#include <fstream>

#include "util/file_descriptor.hpp"
#include "util/repeated_ids.hpp"
#include "util/sha256.hpp"
#include "util/untrusted_json.hpp"
#include "aeval/error.hpp"
#include "models/model_classes.hpp"

namespace aeval::models {

namespace {

// Each row's offset in the file, by the hash of its id: a million answers take 16 MB, not their text twice over.
// An answer is read again from the file when its sample asks for it.
class PredictionsFile final : public Model {
 public:
  explicit PredictionsFile(PredictionsFileConfig config)
      : config_(std::move(config)), file_(::open(config_.path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (!file_.is_open()) throw Error(ErrorCategory::data, config_.path.string() + ": cannot open the predictions file");
    std::ifstream in(config_.path);
    std::string line;
    std::uint64_t offset = 0;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
      const std::uint64_t at = offset;
      offset += line.size() + 1;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      ids_.add(row_of(line, fmt::format("{}:{}", config_.path.string(), number)).id, at);
    }
    if (const auto repeat = ids_.first_repeat([this](std::uint64_t offset) { return row_at(offset).id; }))
      throw Error(ErrorCategory::data, fmt::format("{}:{}: duplicate id '{}'", config_.path.string(),
                                                   line_at(repeat->again), repeat->id));
    fingerprint_ = sha256_of_file(config_.path);
  }

  // A lookup: answered at once, nothing to wait for.
  void infer(Request request, Completion done) override {
    complete(done, [&] {
      Response r;
      const bool found = ids_.any_of(request.sample_id, [&](std::uint64_t offset) {
        Row row = row_at(offset);
        if (row.id != request.sample_id) return false;
        r.text = std::move(row.prediction);
        return true;
      });
      if (found) return r;
      throw Error(ErrorCategory::model,
                  fmt::format("{} has no prediction for sample '{}'", config_.path.string(), request.sample_id));
    });
  }
  int input_sample_rate() const override { return 0; }
  int max_concurrency() const override { return 1; }
  nlohmann::json identity() const override {
    return {{"backend", "predictions_file"}, {"path", std::filesystem::absolute(config_.path).string()},
            {"sha256", fingerprint_}, {"rows", ids_.size()}};
  }

 private:
  struct Row {
    std::string id, prediction;
  };

  Row row_of(const std::string& line, const std::string& where) const {
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
    return {id.is_string() ? id.get<std::string>() : id.dump(), row[config_.prediction_field].get<std::string>()};
  }

  // The line at `offset`, read in small pieces up to its end (a stream would refill a whole buffer for each row),
  // from any thread.
  Row row_at(std::uint64_t offset) const {
    std::string line;
    char piece[512];
    for (;;) {
      const long long n = file_.read_at(offset + line.size(), piece, sizeof piece);
      if (n <= 0) break;  // the file's end (its last row needs no line end), or a failed read
      const auto* end = static_cast<const char*>(std::memchr(piece, '\n', std::size_t(n)));
      line.append(piece, end ? std::size_t(end - piece) : std::size_t(n));
      if (end) break;
    }
    if (line.empty())
      throw Error(ErrorCategory::data, config_.path.string() + ": the predictions file changed while the run read it");
    return row_of(line, config_.path.string());
  }

  // The line number of the row at `offset`.
  std::size_t line_at(std::uint64_t offset) const {
    std::ifstream in(config_.path);
    std::size_t line = 1;
    for (std::uint64_t at = 0; at < offset; ++at)
      if (in.get() == '\n') ++line;
    return line;
  }

  PredictionsFileConfig config_;
  FileDescriptor file_;
  RepeatedIds ids_;  // each row's offset in the file, by the hash of its id
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
