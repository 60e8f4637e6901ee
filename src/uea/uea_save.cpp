#include "uea/uea_save.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "prompts/prompt.hpp"

namespace aeval::uea {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

// json.dumps(value, ensure_ascii=False): ", " and ": " between parts, floats as repr() writes them.
std::string python_json(const Json& value) {
  if (value.is_object()) {
    std::string out = "{";
    bool first = true;
    for (const auto& [key, item] : value.items()) {
      out += (first ? "" : ", ") + Json(key).dump(-1, ' ', false, Json::error_handler_t::replace) + ": " + python_json(item);
      first = false;
    }
    return out + "}";
  }
  if (value.is_array()) {
    std::string out = "[";
    for (std::size_t k = 0; k < value.size(); ++k) out += (k ? ", " : "") + python_json(value[k]);
    return out + "]";
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (std::isnan(d)) return "NaN";
    if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
    return text::python_float_repr(d);
  }
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// A dict in the order its "uea_keys" list gives (summary.json and samples.jsonl keep keys sorted beside it).
Json in_uea_order(const nlohmann::json& scored) {
  Json dict = Json::object();
  for (const auto& key : scored.value("uea_keys", nlohmann::json::array()))
    dict[key.get<std::string>()] = Json(scored["uea"][key.get<std::string>()]);
  return dict;
}

}  // namespace

fs::path write_uea_results(const std::string& save, const std::string& model, const std::string& dataset,
                           const std::string& prompt, const registry::Registry& registry,
                           const pipeline::RunResult& result) {
  const fs::path log = save.ends_with(".jsonl") ? fs::path(save) : fs::path("res") / model / dataset / (save + ".jsonl");
  if (log.has_parent_path()) fs::create_directories(log.parent_path());
  const pipeline::Prompt rendered = pipeline::Prompt::load(registry, prompt);
  const nlohmann::json& task = result.summary["provenance"]["task"];
  const std::string evaluator = task["evaluators"].at(0), aggregator = task["aggregators"].at(0);

  std::ofstream out(log, std::ios::trunc);
  std::ifstream samples(result.run_dir / "samples.jsonl");
  std::size_t index = 0;
  for (std::string line; std::getline(samples, line); ++index) {
    const nlohmann::json record = nlohmann::json::parse(line);
    const auto stage = [&](const char* type, const Json& data) {
      out << python_json(Json{{"type", type}, {"id", index}, {"data", data}}) << "\n";
    };
    Json row = record["fields"].is_object() ? Json(record["fields"]) : Json::object();
    if (!row.contains("WavPath") && record.contains("audio")) row["WavPath"] = record["audio"];
    // A text field equal to the reference is stored once, as the reference (sample_json).
    if (!row.contains("text") && record["reference"].is_string()) row["text"] = record["reference"];
    try {
      stage("prompt", {{"content", rendered.render_structure(row)}});
    } catch (const Error&) {
      // UEA's own run stops at such a row; the error line below says why aeval's failed it
    }
    if (record.contains("prediction")) stage("inference", {{"content", record["prediction"]}});
    if (record.contains("prediction_processed")) stage("post_process", {{"content", record["prediction_processed"]}});
    if (!record["error"].is_null()) {
      stage("error", {{"info", record["error"].value("message", record["error"].dump())}});
      continue;
    }
    stage("eval", in_uea_order(record["scores"][evaluator]));
  }

  Json overall = in_uea_order(result.summary["aggregations"][aggregator][evaluator]);
  const nlohmann::json& counts = result.summary["counts"];
  const double samples_run = counts["samples"].get<double>();
  overall["fail_rate(%d)"] = samples_run > 0 ? counts["failed"].get<double>() / samples_run * 100 : 0.0;
  fs::path overall_file = log;
  overall_file.replace_filename(log.stem().string() + "-overall.json");
  std::ofstream(overall_file, std::ios::trunc) << text::python_repr(overall);
  return log;
}

}  // namespace aeval::uea
