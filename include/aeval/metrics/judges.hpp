#pragma once
// Reading language-model judges' answers and turning them into scores: the
// dynamic rubric of AnyAudio-Judge (seed 000) and the captioning judge of
// AudioCapBench (seed 002). The evaluators that ask the models are
// pipeline's; the reading and the arithmetic live here. (AQAScore's p(yes)
// is in yes_no.hpp.)
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aeval::metrics {

struct RubricItem {
  std::string dimension, question, basis;
};

// The decomposer's items: {"items": [...]} (or the reference's other list
// keys, Chinese included) or a bare list; items without a question are
// dropped. Throws aeval::Error (model) when the answer holds no list.
std::vector<RubricItem> parse_rubric_items(const std::string& answer);
// [{"id": 0, "dimension": ..., "question": ..., "basis": ...}, ...], as prompts show them.
nlohmann::json rubric_items_json(const std::vector<RubricItem>& items);

// The filter's {"results": [{"id": i, "judgment": "keep"|"drop"}]}: which
// items stay (an item it does not mention stays). Throws aeval::Error
// (model) when the answer holds no results list.
std::vector<bool> parse_rubric_filter(const std::string& answer, std::size_t items);

// A generating judge's [{"id": i, "answer": "yes"|"no", "evidence": ...}]:
// one entry per item, empty where the judge gave no usable answer.
struct RubricAnswer {
  std::optional<bool> yes;
  std::string evidence;
};
std::vector<RubricAnswer> parse_rubric_answers(const std::string& answer, std::size_t items);

// The score: the mean over answered items of p(yes) (1 or 0 for generated
// answers); an unanswered item drops out, as in the reference. Throws
// aeval::Error (model) when no item was answered.
double rubric_score(const std::vector<double>& answered_p_yes);

// AudioCapBench's judge reply: a JSON object with accuracy, completeness and
// hallucination (0–10, clamped), overall = their mean rounded to 2 decimals
// as the reference rounds; nullopt when a criterion is missing or not a number.
struct CaptionJudgement {
  double accuracy = 0, completeness = 0, hallucination = 0, overall = 0;
  std::string reasoning;
};
std::optional<CaptionJudgement> parse_caption_judgement(const std::string& reply);

// A holistic judge's verdict (AnyAudio-Judge's Table 14: a flat JSON object whose "Consistency" is true or false):
// the value of `field` in the answer's JSON object (fences and prose around it ignored), true or false as JSON or
// as text in any case; nullopt when the answer states neither.
std::optional<bool> parse_verdict(const std::string& answer, const std::string& field);

// A rating the judge states as "<label>: <number>" (AQAScore's prompting setup: "Score: 7"): the number after the
// answer's last "<label>:", nullopt when there is none. With `words`, the word (letters and digits) there instead, in
// any case, as the number `words` gives it ("Answer: preferred" with {preferred: 1, rejected: 0}, "Better Caption: 2"
// with {1: 1, 2: 0}).
std::optional<double> parse_rating(const std::string& answer, const std::string& label,
                                   const std::map<std::string, double>& words = {});

}  // namespace aeval::metrics
