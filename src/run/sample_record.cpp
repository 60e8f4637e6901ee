#include "run/sample_record.hpp"

#include <map>
#include <vector>

#include "aeval/error.hpp"

namespace aeval::pipeline {

using nlohmann::json;

json sample_json(const Sample& s) {
  json fields = s.fields.is_object() ? s.fields : json::object();
  for (const char* key : {"id", "audio"}) fields.erase(key);
  // The text field is kept where it is not the reference (a TTS set's text beside its reference audio).
  if (s.reference && fields.contains("text") && fields["text"] == *s.reference) fields.erase("text");
  json r = {{"id", s.id}, {"reference", s.reference ? json(*s.reference) : json(nullptr)}, {"fields", fields}};
  if (!s.audio.empty()) r["audio"] = s.audio.string();
  return r;
}

Sample sample_of(const json& record) {
  Sample s;
  s.id = record["id"];
  if (const auto r = record.find("reference"); r != record.end() && r->is_string()) s.reference = r->get<std::string>();
  s.audio = record.value("audio", "");
  s.fields = record.value("fields", json::object());
  return s;
}

json error_json(const std::string& stage, const std::exception& e) {
  const auto* aeval_error = dynamic_cast<const Error*>(&e);
  return {{"stage", stage}, {"category", aeval_error ? to_string(aeval_error->category()) : "internal"},
          {"message", e.what()}};
}

void score_into(json& record, const Sample& sample, const LoadedTask& task, const std::filesystem::path& run_dir) {
  try {
    const std::filesystem::path output_audio =
        record.contains("output_audio") ? run_dir / record["output_audio"].get<std::string>() : std::filesystem::path();
    std::string prediction = record["prediction"];
    if (!output_audio.empty() && !task.post_process.empty() && task.post_process.front().spoken_answer)
      prediction = task.post_process.front().spoken_answer(output_audio, prediction);
    for (const auto& p : task.post_process) prediction = p.apply(prediction, sample);
    // Each references field once, through the post-processors that apply to references.
    std::map<std::string, std::vector<std::string>> references;
    const auto references_for = [&](const std::string& field) -> const std::vector<std::string>& {
      auto it = references.find(field);
      if (it != references.end()) return it->second;
      std::vector<std::string> refs = references_of(sample, field);
      for (const auto& p : task.post_process)
        if (p.references_too)
          for (auto& r : refs) r = p.apply(r, sample);
      return references.emplace(field, std::move(refs)).first->second;
    };
    record["prediction_processed"] = prediction;
    // The first evaluator's references, shown in the record; none where it needs none and the row has none.
    static const std::vector<std::string> kNone;
    const auto* front = task.evaluators.empty() ? nullptr : task.evaluators.front().get();
    record["references_processed"] = front && (front->compares_with_references() || sample.reference)
                                          ? references_for(front->references_field)
                                          : kNone;
    const json& logprobs = record.contains("logprobs") ? record["logprobs"] : Scored::kNoLogprobs;
    json scores = json::object();
    for (const auto& e : task.evaluators) {
      const auto& refs = e->compares_with_references() ? references_for(e->references_field) : kNone;
      json score = e->score(Scored{prediction, refs, sample, output_audio, scores, logprobs});
      // References other than the record's are kept with the score: corpus metrics (BLEU, CIDEr-D) read them.
      if (e->compares_with_references() && front && e->references_field != front->references_field)
        score["references"] = refs;
      scores[e->name] = std::move(score);
    }
    record["scores"] = scores;
    record["error"] = nullptr;
  } catch (const std::exception& e) {
    record.erase("scores");
    record["error"] = error_json("score", e);
  }
}

}  // namespace aeval::pipeline
