#include "view/view_api.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "aeval/metrics/wer.hpp"
#include "aeval/report/leaderboard.hpp"

namespace aeval::view {

using nlohmann::json;
using pipeline::RunStore;

namespace {

RunStore open_store(const std::filesystem::path& run_dir) { return RunStore::read_only(run_dir / "run.sqlite"); }

// A record's member object (scores, fields), or an empty one.
const json& object_at(const json& record, const char* key) {
  static const json none = json::object();
  return record.is_object() && record.contains(key) && record[key].is_object() ? record[key] : none;
}

json score_values(const json& record) {
  json out = json::object();
  for (const auto& [name, score] : object_at(record, "scores").items())
    if (score.is_object() && score.contains("value")) out[name] = score["value"];
  return out;
}

// The audio a record names, by role: the sample's input, the model's output, and any field whose
// name says audio (a voice prompt, a reference recording, a judge's pair).
std::map<std::string, std::string> audio_roles(const json& record) {
  std::map<std::string, std::string> roles;
  if (record.contains("audio") && record["audio"].is_string()) roles["input"] = record["audio"];
  if (record.contains("output_audio") && record["output_audio"].is_string()) roles["output"] = record["output_audio"];
  for (const auto& [name, value] : object_at(record, "fields").items())
    if (value.is_string() && name.find("audio") != std::string::npos) roles["field." + name] = value;
  return roles;
}

const char* label_of(const std::string& role) {
  return role == "input" ? "input audio" : role == "output" ? "model's audio" : nullptr;
}

// The alignment an error-rate score counted, in whichever unit (words or characters) reproduces its
// counts; none when the record's texts do not give them (a score of another kind).
std::optional<json> alignment(const json& record, const std::string& name, const json& score) {
  for (const char* key : {"hits", "substitutions", "deletions", "insertions"})
    if (!score.contains(key)) return std::nullopt;
  const json& refs = score.contains("references") ? score["references"] : record.value("references_processed", json());
  if (!refs.is_array() || refs.empty() || !refs[0].is_string() || !record.contains("prediction_processed") ||
      !record["prediction_processed"].is_string())
    return std::nullopt;
  const std::string reference = refs[0], prediction = record["prediction_processed"];
  for (const bool words : {true, false}) {
    // What process_words / process_characters do for one pair, keeping the tokens to show.
    const auto ref_tokens = words ? metrics::jiwer_words(reference) : metrics::jiwer_chars(reference);
    const auto hyp_tokens = words ? metrics::jiwer_words(prediction) : metrics::jiwer_chars(prediction);
    std::vector<metrics::AlignmentChunk> alignment;
    const metrics::EditCounts c = metrics::align(ref_tokens, hyp_tokens, &alignment);
    if (c.hits != score["hits"] || c.substitutions != score["substitutions"] || c.deletions != score["deletions"] ||
        c.insertions != score["insertions"])
      continue;
    json chunks = json::array();
    for (const auto& chunk : alignment)
      chunks.push_back({{"type", metrics::to_string(chunk.type)},
                        {"ref", std::vector<std::string>(ref_tokens.begin() + long(chunk.ref_start),
                                                         ref_tokens.begin() + long(chunk.ref_end))},
                        {"hyp", std::vector<std::string>(hyp_tokens.begin() + long(chunk.hyp_start),
                                                         hyp_tokens.begin() + long(chunk.hyp_end))}});
    return json{{"score", name},
                {"unit", words ? "words" : "chars"},
                {"counts",
                 {{"hits", c.hits}, {"substitutions", c.substitutions}, {"deletions", c.deletions},
                  {"insertions", c.insertions}}},
                {"chunks", chunks}};
  }
  return std::nullopt;
}

}  // namespace

json samples_page(const std::filesystem::path& run_dir, const RunStore::Query& query) {
  const auto page = open_store(run_dir).page(query);
  json rows = json::array();
  for (const auto& [position, s] : page.samples) {
    json error = s.record.value("error", json());
    rows.push_back({{"position", position},
                    {"id", s.id},
                    {"failed", s.failed},
                    {"prediction", s.record.value("prediction", json())},
                    {"error", error.is_object() ? error.value("message", json()) : json()},
                    {"scores", score_values(s.record)}});
  }
  return {{"total", page.total}, {"offset", query.offset}, {"samples", rows}};
}

std::optional<json> sample_detail(const std::filesystem::path& run_dir, std::size_t position) {
  const auto s = open_store(run_dir).sample_at(position);
  if (!s) return std::nullopt;
  json audio = json::array(), alignments = json::array();
  for (const auto& [role, path] : audio_roles(s->record)) {
    const char* label = label_of(role);
    audio.push_back({{"role", role}, {"label", label ? label : role.substr(6)}, {"path", path}});
  }
  for (const auto& [name, score] : object_at(s->record, "scores").items())
    if (score.is_object())
      if (auto a = alignment(s->record, name, score)) alignments.push_back(std::move(*a));
  // Words before characters: the alignment most readers look for first.
  std::stable_sort(alignments.begin(), alignments.end(),
                   [](const json& x, const json& y) { return x["unit"] == "words" && y["unit"] != "words"; });
  return json{{"position", position}, {"id", s->id},       {"failed", s->failed},
              {"record", s->record},  {"audio", audio},    {"alignments", alignments}};
}

std::optional<std::string> sample_audio_wav(const std::filesystem::path& run_dir, std::size_t position,
                                            const std::string& role) {
  const auto s = open_store(run_dir).sample_at(position);
  if (!s) return std::nullopt;
  const auto roles = audio_roles(s->record);
  const auto found = roles.find(role);
  if (found == roles.end()) return std::nullopt;
  std::filesystem::path file = found->second;
  if (role == "output") {  // written by aeval inside the run folder, named relative to it: it must stay there
    std::error_code error;
    file = std::filesystem::weakly_canonical(run_dir / file, error);
    const auto [r, f] = std::mismatch(run_dir.begin(), run_dir.end(), file.begin(), file.end());
    if (error || r != run_dir.end())
      throw Error(ErrorCategory::data, fmt::format("sample {}'s output audio '{}' lies outside its run folder",
                                                   position, found->second));
  }
  return encode_wav(decode_audio(file), WavEncoding::pcm16);
}

json compare_runs(const std::filesystem::path& a, const std::filesystem::path& b, const std::string& score,
                  bool ascending, std::size_t offset, std::size_t limit) {
  const auto values_a = open_store(a).score_values(score), values_b = open_store(b).score_values(score);
  std::map<std::string, std::pair<std::size_t, double>> by_id;
  for (std::size_t i = 0; i < values_b.size(); ++i)
    if (values_b[i].second) by_id.emplace(values_b[i].first, std::pair{i, *values_b[i].second});
  json rows = json::array();
  std::size_t only_a = 0;
  std::vector<std::tuple<double, std::size_t, std::size_t>> pairs;  // difference, position in a, in b
  for (std::size_t i = 0; i < values_a.size(); ++i) {
    const auto found = by_id.find(values_a[i].first);
    if (!values_a[i].second || found == by_id.end()) {
      ++only_a;
      continue;
    }
    pairs.emplace_back(found->second.second - *values_a[i].second, i, found->second.first);
  }
  std::stable_sort(pairs.begin(), pairs.end(), [ascending](const auto& x, const auto& y) {
    return ascending ? std::get<0>(x) < std::get<0>(y) : std::get<0>(x) > std::get<0>(y);
  });
  for (std::size_t k = offset; k < pairs.size() && k < offset + limit; ++k) {
    const auto& [difference, i, j] = pairs[k];
    rows.push_back({{"id", values_a[i].first},
                    {"position_a", i},
                    {"position_b", j},
                    {"a", *values_a[i].second},
                    {"b", *values_b[j].second},
                    {"difference", difference}});
  }
  return {{"metric", score},
          {"total", pairs.size()},
          {"only_a", only_a},
          {"only_b", by_id.size() - pairs.size()},
          {"offset", offset},
          {"rows", rows}};
}

json leaderboards(const std::filesystem::path& root, const std::set<std::string>& broken) {
  std::vector<report::Leaderboard> boards;
  try {
    boards = report::collect_leaderboards(root, [&](const std::filesystem::path& run_dir) {
      return !broken.count(run_dir.lexically_relative(root).generic_string());
    });
  } catch (const Error&) {  // no finished run yet: no board
    return json::array();
  }
  json out = json::array();
  for (const auto& b : boards) {
    json columns = json::array(), rows = json::array();
    for (const auto& c : b.columns)
      columns.push_back({{"dataset", c.dataset},
                         {"metric", c.metric},
                         {"rule", c.rule},
                         {"scorer", c.scorer},
                         {"higher_is_better", c.higher_is_better ? json(*c.higher_is_better) : json()}});
    for (const auto& r : b.rows) {
      json values = json::array(), intervals = json::array();
      for (std::size_t k = 0; k < b.columns.size(); ++k) {
        const auto v = r.values.find(k);
        values.push_back(v != r.values.end() && std::isfinite(v->second) ? json(v->second) : json());
        const auto i = r.intervals.find(k);
        intervals.push_back(i != r.intervals.end() ? json{i->second.first, i->second.second} : json());
      }
      rows.push_back({{"label", r.label},
                      {"model", r.model},
                      {"prompt", r.prompt},
                      {"values", values},
                      {"intervals", intervals},
                      {"average", r.average ? json(*r.average) : json()},
                      {"bitrate_kbps", r.bitrate_kbps ? json(*r.bitrate_kbps) : json()},
                      {"fail_rate", r.fail_rate},
                      {"samples", r.samples},
                      {"ranked", r.ranked},
                      {"runs", r.runs},
                      {"older_runs", r.older_runs}});
    }
    out.push_back({{"task", b.task}, {"datasets", b.datasets}, {"columns", columns}, {"rows", rows},
                   {"mixed_metrics", b.mixed_metrics}});
  }
  return out;
}

}  // namespace aeval::view
