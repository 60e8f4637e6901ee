// Evaluators that ask language models: AQAScore (yes/no log-probabilities),
// the dynamic rubric judge of AnyAudio-Judge, the AudioCapBench captioning
// judge, rating judges (SpeechAlpacaEval, AIR-Bench chat). docs/judges.md explains each against its paper; the
// judges judged against people are meta_evaluators.cpp.
#include "evaluators/evaluator.hpp"
#include "prompts/prompt.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "aeval/error.hpp"
#include "aeval/metrics/judges.hpp"
#include "aeval/metrics/yes_no.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Kind;
using registry::Registry;

using nlohmann::json;

namespace {

// What a judge hears and reads for one sample.
struct JudgeInput {
  std::string audio = "auto";  // auto (output, else the sample's), output, sample, or a sample field
  std::string text_field;      // "": the sample's reference text

  std::filesystem::path audio_of(const Scored& s, const std::string& evaluator) const {
    std::filesystem::path path;
    if (audio == "auto") path = s.output_audio.empty() ? s.sample.audio : s.output_audio;
    else if (audio == "output") path = s.output_audio;
    else if (audio == "sample") path = s.sample.audio;
    else path = field(s.sample, audio, evaluator);
    if (path.empty())
      throw Error(ErrorCategory::data, fmt::format("sample '{}': {} has no audio to judge ({})", s.sample.id, evaluator, audio));
    return path;
  }
  std::string text_of(const Scored& s, const std::string& evaluator) const {
    return text_field.empty() ? reference_text(s.sample) : field(s.sample, text_field, evaluator);
  }
  static std::string field(const Sample& sample, const std::string& name, const std::string& evaluator) {
    if (!sample.fields.is_object() || !sample.fields.contains(name) || !sample.fields[name].is_string())
      throw Error(ErrorCategory::data,
                  fmt::format("sample '{}': {} needs the text field '{}'", sample.id, evaluator, name));
    return sample.fields[name];
  }
  json identity() const { return {{"audio", audio}, {"text_field", text_field.empty() ? "reference" : text_field}}; }
};

// A sample-shaped context for a judge's prompt: the sample's own fields,
// with the audio and text being judged and any extra fields on top.
Sample context_for(const Sample& s, const std::filesystem::path& audio, const std::string& text, const json& extra = {}) {
  Sample c;
  c.id = s.id;
  c.audio = audio;
  c.reference = text;
  c.fields = s.fields.is_object() ? s.fields : json::object();
  c.fields["text"] = text;
  if (extra.is_object()) c.fields.update(extra);
  return c;
}

// ---------------------------------------------------------------- AQAScore

// One AQAScore as a sample's score: p(yes) and the two log-probabilities it came from.
json aqascore_json(const metrics::YesNoProbability& r) {
  return {{"value", r.p_yes}, {"logprob_yes", number_or_null(r.logprob_yes.value_or(NAN))},
          {"logprob_no", number_or_null(r.logprob_no.value_or(NAN))}};
}

class AqaScore final : public Evaluator {
 public:
  enum class Mode { single, pair_audio, pair_text, compa };
  AqaScore(std::shared_ptr<ScoringModels> scoring, std::string judge, Prompt question, Mode mode, JudgeInput input,
           std::string label_field, double tie_credit)
      : scoring_(std::move(scoring)), judge_(std::move(judge)), question_(std::move(question)), mode_(mode),
        input_(std::move(input)), label_field_(std::move(label_field)), tie_credit_(tie_credit) {}

  json score(const Scored& s) const override {
    const auto p = [&](const std::filesystem::path& audio, const std::string& text) {
      const auto answer = scoring_->ask(judge_, question_, context_for(s.sample, audio, text));
      return metrics::yes_no_probability(answer.logprobs);
    };
    const auto field = [&](const char* name) { return JudgeInput::field(s.sample, name, this->name); };
    switch (mode_) {
      case Mode::single: {
        return aqascore_json(p(input_.audio_of(s, name), input_.text_of(s, name)));
      }
      case Mode::pair_audio: {
        const std::string text = input_.text_of(s, name);
        const double a = p(field("audio_a"), text).p_yes, b = p(field("audio_b"), text).p_yes;
        return preference(s, a > b ? "a" : b > a ? "b" : "tie", {{"score_a", a}, {"score_b", b}});
      }
      case Mode::pair_text: {
        // One comparative question (the prompt names text_a and text_b): yes prefers a.
        const std::string text = input_.text_field.empty() ? s.sample.reference.value_or("") : input_.text_of(s, name);
        const double yes = p(input_.audio_of(s, name), text).p_yes;
        return preference(s, yes > 0.5 ? "a" : yes < 0.5 ? "b" : "tie", {{"p_yes", yes}});
      }
      case Mode::compa: {
        // s[i][j]: audio i with caption j; caption a describes audio a.
        const std::filesystem::path audio[2] = {field("audio_a"), field("audio_b")};
        const std::string caption[2] = {field("text_a"), field("text_b")};
        double m[2][2];
        for (int i = 0; i < 2; ++i)
          for (int j = 0; j < 2; ++j) m[i][j] = p(audio[i], caption[j]).p_yes;
        const bool text_ok = m[0][0] > m[0][1] && m[1][1] > m[1][0];   // each audio prefers its caption
        const bool audio_ok = m[0][0] > m[1][0] && m[1][1] > m[0][1];  // each caption prefers its audio
        return {{"value", text_ok && audio_ok ? 1.0 : 0.0}, {"text_score", text_ok ? 1.0 : 0.0},
                {"audio_score", audio_ok ? 1.0 : 0.0}, {"scores", {{m[0][0], m[0][1]}, {m[1][0], m[1][1]}}}};
      }
    }
    return {};
  }
  // corpus() adds means of other keys: from statistics, its value only.
  std::optional<SampleStatistics> statistics() const override { return mean_statistics(name); }
  json corpus(const Records& records) const override {
    json out = Evaluator::corpus(records);
    if (mode_ == Mode::compa) {
      out["text_score"] = mean_score(records, name, "text_score");
      out["audio_score"] = mean_score(records, name, "audio_score");
      out["group_score"] = out["value"];
    }
    return out;
  }
  bool compares_with_references() const override {
    return input_.text_field.empty() && (mode_ == Mode::single || mode_ == Mode::pair_audio);
  }
  json identity() const override {
    static const char* modes[] = {"single", "pair_audio", "pair_text", "compa"};
    json j = {{"name", name}, {"class", "aqascore"}, {"judge", judge_}, {"judge_identity", scoring_->identity(judge_)},
              {"question", question_.identity()}, {"mode", modes[int(mode_)]},
              {"score", "p(yes) = e^yes / (e^yes + e^no) over the first token's top logprobs, variants by max"}};
    j.update(input_.identity());
    if (mode_ == Mode::pair_audio || mode_ == Mode::pair_text) j["label_field"] = label_field_, j["tie_credit"] = tie_credit_;
    return j;
  }

 private:
  // 1 when the judge prefers the labelled one, tie_credit for a tie.
  json preference(const Scored& s, const std::string& preferred, json details) const {
    const std::string label = text::lower(JudgeInput::field(s.sample, label_field_, name));
    if (label != "a" && label != "b")
      throw Error(ErrorCategory::data, fmt::format("sample '{}': field '{}' must be a or b", s.sample.id, label_field_));
    details["value"] = preferred == label ? 1.0 : preferred == "tie" ? tie_credit_ : 0.0;
    details["preferred"] = preferred;
    return details;
  }

  std::shared_ptr<ScoringModels> scoring_;
  std::string judge_;
  Prompt question_;
  Mode mode_;
  JudgeInput input_;
  std::string label_field_;
  double tie_credit_;
};

// AQAScore with the judge as the model under test (`aeval run --model JUDGE` with an AQAScore
// question as the task's prompt): p(yes) from the log-probabilities of its own answer, so a
// leaderboard ranks judges as the papers' tables do.
class AnswerAqaScore final : public Evaluator {
 public:
  json score(const Scored& s) const override {
    if (s.logprobs.is_null())
      throw Error(ErrorCategory::data, fmt::format("sample '{}': {} needs the model's log-probabilities (an openai_chat "
                                                   "entry with logprobs: true and top_logprobs of 20)",
                                                   s.sample.id, name));
    return aqascore_json(metrics::yes_no_probability(s.logprobs));
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "answer_aqascore"},
            {"score", "p(yes) = e^yes / (e^yes + e^no) over the first token's top logprobs of the model's answer, "
                      "variants by max"}};
  }
};

// What a rating states: a number, or one of `words`.
std::string stated(const std::map<std::string, double>& words) {
  if (words.empty()) return "<number>";
  std::vector<std::string> names;
  for (const auto& [word, value] : words) names.push_back(word);
  return fmt::format("{}", fmt::join(names, " or "));
}

// A rating's `values` argument: {word: number}.
std::map<std::string, double> rating_words(const Args& args) {
  std::map<std::string, double> words;
  if (!args.given("values")) return words;
  for (const auto& kv : args.node("values")) {
    try {
      words[text::lower(kv.first.as<std::string>())] = kv.second.as<double>();
    } catch (const YAML::Exception&) {
      args.fail("values: {word: number, ...}, e.g. {preferred: 1, rejected: 0}");
    }
  }
  return words;
}

ArgSpec rating_values_arg() {
  return arg::map("values", "{word: number}: the answer states one of these words instead of a number", false);
}

// A verdict the model under test states in its answer's JSON (AnyAudio-Judge's holistic judge, seed 000 Table 14:
// "Consistency": true or false): 1 for true, 0 for false, a score judge_accuracy decides on. An answer stating
// neither fails its sample.
class AnswerVerdict final : public Evaluator {
 public:
  explicit AnswerVerdict(std::string field) : field_(std::move(field)) {}
  json score(const Scored& s) const override {
    if (const auto verdict = metrics::parse_verdict(s.prediction, field_))
      return {{"value", *verdict ? 1.0 : 0.0}, {"verdict", *verdict}};
    throw Error(ErrorCategory::model, fmt::format("sample '{}': the answer states no '{}' of true or false: {}",
                                                  s.sample.id, field_, s.prediction.substr(0, 300)));
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "answer_verdict"}, {"field", field_},
            {"score", "1 when the answer's JSON object says true in the field, 0 when false"}};
  }

 private:
  std::string field_;
};

// The model under test's answers to a row's rubric questions, all asked at once (AnyAudio-Judge's generate mode,
// judge.py): the share of yes among the questions it answered yes or no, as its evaluate_benchmark.py scores a row
// (answers it cannot read left out). An answer giving none fails its sample.
class RubricAnswers final : public Evaluator {
 public:
  explicit RubricAnswers(std::string items_field) : items_field_(std::move(items_field)) {}
  json score(const Scored& s) const override {
    const json* items = s.sample.fields.is_object() && s.sample.fields.contains(items_field_)
                            ? &s.sample.fields[items_field_]
                            : nullptr;
    if (!items || !items->is_array() || items->empty())
      throw Error(ErrorCategory::data, fmt::format("sample '{}': no rubric questions in field '{}'", s.sample.id, items_field_));
    const auto answers = metrics::parse_rubric_answers(s.prediction, items->size());
    std::size_t yes = 0, answered = 0;
    json per_item = json::array();
    for (std::size_t i = 0; i < answers.size(); ++i) {
      json item = {{"question", (*items)[i].value("question", "")}};
      if (answers[i].yes) {
        ++answered;
        yes += *answers[i].yes;
        item.update({{"answer", *answers[i].yes ? "yes" : "no"}, {"evidence", answers[i].evidence}});
      }
      per_item.push_back(std::move(item));
    }
    if (!answered)
      throw Error(ErrorCategory::model, fmt::format("sample '{}': the answer says yes or no to none of the {} questions: {}",
                                                    s.sample.id, items->size(), s.prediction.substr(0, 300)));
    return {{"value", double(yes) / double(answered)}, {"answered", answered}, {"items", per_item}};
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "rubric_answers"}, {"items_field", items_field_},
            {"score", "the share of yes among the rubric questions the answer says yes or no to"}};
  }

 private:
  std::string items_field_;
};

// A rating the model under test states as "Score: <number>" (AQAScore's prompting setup, seed 003 Tables 8-10): the
// number, a score the correlations with people read. An answer stating none fails its sample.
class AnswerRating final : public Evaluator {
 public:
  AnswerRating(std::string label, std::map<std::string, double> words) : label_(std::move(label)), words_(std::move(words)) {}
  json score(const Scored& s) const override {
    if (const auto rating = metrics::parse_rating(s.prediction, label_, words_)) return {{"value", *rating}};
    throw Error(ErrorCategory::model, fmt::format("sample '{}': the answer states no '{}: {}': {}", s.sample.id, label_,
                                                  stated(words_), s.prediction.substr(0, 300)));
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "answer_rating"}, {"label", label_}, {"values", words_},
            {"score", "what the answer states after its last '" + label_ + ":'"}};
  }

 private:
  std::string label_;
  std::map<std::string, double> words_;
};

// ------------------------------------------------- Dynamic rubric (AnyAudio-Judge)

using metrics::RubricItem;

class RubricJudge final : public Evaluator {
 public:
  struct Prompts {
    Prompt decompose, filter, judge, generate;
  };
  RubricJudge(std::shared_ptr<ScoringModels> scoring, std::string decomposer, std::string judge, Prompts prompts,
              bool generate, bool filter, std::string holistic_dimension, JudgeInput input)
      : scoring_(std::move(scoring)), decomposer_(std::move(decomposer)), judge_(std::move(judge)),
        prompts_(std::move(prompts)), generate_(generate), filter_(filter),
        holistic_dimension_(std::move(holistic_dimension)), input_(std::move(input)) {}

  json score(const Scored& s) const override {
    const std::string text = input_.text_of(s, name);
    const std::filesystem::path audio = input_.audio_of(s, name);
    // Stages 1 and 2 read only the text: their answers are cached by it, once for every model judged.
    const Sample text_only = context_for(s.sample, {}, text);
    std::vector<RubricItem> items = metrics::parse_rubric_items(scoring_->ask(decomposer_, prompts_.decompose, text_only).text);
    const std::size_t proposed = items.size();
    if (filter_ && !items.empty()) items = filtered(items, s.sample, text);
    const bool fallback = items.empty();
    if (fallback) items = {{holistic_dimension_, text, text}};

    json details = json::array();
    std::vector<double> p_yes;
    if (!generate_) {
      for (const auto& item : items) {
        json d = {{"dimension", item.dimension}, {"question", item.question}, {"basis", item.basis}};
        try {
          const auto answer = scoring_->ask(
              judge_, prompts_.judge, context_for(s.sample, audio, text, {{"dimension", item.dimension}, {"question", item.question}}));
          const double p = metrics::yes_no_probability(answer.logprobs).p_yes;
          d["p_yes"] = p;
          d["answer"] = p >= 0.5 ? "yes" : "no";
          p_yes.push_back(p);
        } catch (const Error& e) {  // as the reference: an unanswerable item drops out of the mean
          d["error"] = e.what();
        }
        details.push_back(d);
      }
    } else {
      const auto answer =
          scoring_->ask(judge_, prompts_.generate, context_for(s.sample, audio, text, {{"items", metrics::rubric_items_json(items)}}));
      const auto answers = metrics::parse_rubric_answers(answer.text, items.size());
      for (std::size_t i = 0; i < items.size(); ++i) {
        json d = {{"dimension", items[i].dimension}, {"question", items[i].question}, {"basis", items[i].basis}};
        if (answers[i].yes)
          d.update({{"answer", *answers[i].yes ? "yes" : "no"}, {"evidence", answers[i].evidence},
                    {"p_yes", *answers[i].yes ? 1.0 : 0.0}});
        details.push_back(d);
      }
      for (const auto& d : details)
        if (d.contains("p_yes")) p_yes.push_back(d["p_yes"]);
    }
    if (p_yes.empty())
      throw Error(ErrorCategory::model, fmt::format("sample '{}': the judge answered none of the {} rubric items", s.sample.id,
                                                    items.size()));
    return {{"value", metrics::rubric_score(p_yes)}, {"items", details}, {"proposed_items", proposed},
            {"kept_items", fallback ? 0 : items.size()}, {"holistic_fallback", fallback}};
  }

  bool compares_with_references() const override { return input_.text_field.empty(); }
  json identity() const override {
    json j = {{"name", name}, {"class", "rubric_judge"}, {"decomposer", decomposer_},
              {"decomposer_identity", scoring_->identity(decomposer_)}, {"judge", judge_},
              {"judge_identity", scoring_->identity(judge_)}, {"mode", generate_ ? "generate" : "logits"},
              {"filter", filter_}, {"holistic_dimension", holistic_dimension_},
              {"prompts", {{"decompose", prompts_.decompose.identity()}, {"filter", prompts_.filter.identity()},
                           {"judge", generate_ ? prompts_.generate.identity() : prompts_.judge.identity()}}},
              {"score", generate_ ? "yes answers / answered items" : "mean over items of p(yes) (two-way softmax)"}};
    j.update(input_.identity());
    return j;
  }

 private:
  // Stage 2: items the decomposer itself finds unsupported by the text go.
  std::vector<RubricItem> filtered(const std::vector<RubricItem>& items, const Sample& sample, const std::string& text) const {
    const auto answer = scoring_->ask(decomposer_, prompts_.filter, context_for(sample, {}, text, {{"items", metrics::rubric_items_json(items)}}));
    const std::vector<bool> keep = metrics::parse_rubric_filter(answer.text, items.size());
    std::vector<RubricItem> out;
    for (std::size_t i = 0; i < items.size(); ++i)
      if (keep[i]) out.push_back(items[i]);
    return out;
  }

  std::shared_ptr<ScoringModels> scoring_;
  std::string decomposer_, judge_;
  Prompts prompts_;
  bool generate_, filter_;
  std::string holistic_dimension_;
  JudgeInput input_;
};

// ------------------------------------------------- Captioning judge (AudioCapBench)

class CaptionJudge final : public Evaluator {
 public:
  CaptionJudge(std::shared_ptr<ScoringModels> scoring, std::string judge, Prompt prompt)
      : scoring_(std::move(scoring)), judge_(std::move(judge)), prompt_(std::move(prompt)) {}

  json score(const Scored& s) const override {
    Sample c = context_for(s.sample, {}, s.prediction, {{"prediction", s.prediction}, {"references", s.references}});
    std::string last;
    for (int attempt = 0; attempt < 2; ++attempt) {  // a reply that does not parse is asked for once more
      last = scoring_->ask(judge_, prompt_, c, attempt).text;  // a retry is a new request, not a cached one
      const auto judged = metrics::parse_caption_judgement(last);
      if (!judged) continue;
      json out{{"accuracy", judged->accuracy}, {"completeness", judged->completeness},
               {"hallucination", judged->hallucination}, {"value", judged->overall}, {"reasoning", judged->reasoning}};
      out["attempts"] = attempt + 1;
      return out;
    }
    throw Error(ErrorCategory::model, fmt::format("sample '{}': the captioning judge gave no scores twice; last reply: {}",
                                                  s.sample.id, last.substr(0, 300)));
  }
  // corpus() adds means of other keys: from statistics, its value only.
  std::optional<SampleStatistics> statistics() const override { return mean_statistics(name); }
  json corpus(const Records& records) const override {
    json out = Evaluator::corpus(records);
    for (const char* criterion : {"accuracy", "completeness", "hallucination"})
      out[criterion] = mean_score(records, name, criterion);
    return out;
  }
  json identity() const override {
    return {{"name", name}, {"class", "caption_judge"}, {"judge", judge_}, {"judge_identity", scoring_->identity(judge_)},
            {"prompt", prompt_.identity()},
            {"score", "mean of accuracy, completeness, hallucination (0-10, 10 = none), clamped, rounded to 2 decimals"},
            {"references_field", references_field}};
  }

 private:
  std::shared_ptr<ScoringModels> scoring_;
  std::string judge_;
  Prompt prompt_;
};

// ------------------------------------------------- A judge's rating of a prediction (AQAScore's cascade setup)

// A text LLM rates the model's answer (a caption) against the sample's text and states "Score: <number>" (seed 003
// Tables 19-21): the number. An answer stating none fails its sample. With `answers` named, the model's answer is
// one per clip (a prompt asked once per clip: a JSON array), each given to the judge's prompt by its name (the
// captions of a pair, Tables 24-25).
class TextRating final : public Evaluator {
 public:
  TextRating(std::shared_ptr<ScoringModels> scoring, std::string judge, Prompt prompt, std::string label,
             std::map<std::string, double> words, std::vector<std::string> answers, bool reads_reference)
      : scoring_(std::move(scoring)), judge_(std::move(judge)), prompt_(std::move(prompt)), label_(std::move(label)),
        words_(std::move(words)), answers_(std::move(answers)), reads_reference_(reads_reference) {}

  json score(const Scored& s) const override {
    json told{{"prediction", s.prediction}};
    if (!answers_.empty()) {
      const json each = json::parse(s.prediction, nullptr, false);
      if (!each.is_array() || each.size() != answers_.size() ||
          !std::all_of(each.begin(), each.end(), [](const json& a) { return a.is_string(); }))
        throw Error(ErrorCategory::model, fmt::format("sample '{}': the answer is not a JSON array of {} texts, one a "
                                                      "clip: {}", s.sample.id, answers_.size(), s.prediction.substr(0, 300)));
      for (std::size_t i = 0; i < answers_.size(); ++i) told[answers_[i]] = each[i];
    }
    const std::string text = reads_reference_ ? reference_text(s.sample) : std::string();
    const std::string answer = scoring_->ask(judge_, prompt_, context_for(s.sample, {}, text, told)).text;
    if (const auto rating = metrics::parse_rating(answer, label_, words_)) return {{"value", *rating}, {"answer", answer}};
    throw Error(ErrorCategory::model, fmt::format("sample '{}': {} answered no '{}: {}': {}", s.sample.id, judge_, label_,
                                                  stated(words_), answer.substr(0, 300)));
  }
  json identity() const override {
    json id{{"name", name}, {"class", "text_rating"}, {"judge", judge_}, {"judge_identity", scoring_->identity(judge_)},
            {"prompt", prompt_.identity()}, {"label", label_}, {"values", words_},
            {"score", "what the judge states after its last '" + label_ + ":'"}};
    if (!reads_reference_) id["reads_reference"] = false;
    if (!answers_.empty()) id["answers"] = answers_;
    return id;
  }

  bool compares_with_references() const override { return reads_reference_; }

 private:
  std::shared_ptr<ScoringModels> scoring_;
  std::string judge_;
  Prompt prompt_;
  std::string label_;
  std::map<std::string, double> words_;
  std::vector<std::string> answers_;
  bool reads_reference_;
};

// What a judge hears and reads, plus the judge's own arguments.
std::vector<ArgSpec> judge_input(std::vector<ArgSpec> args) {
  args.push_back(arg::text("audio", "auto",
                           "the audio judged: auto (the model's output audio, else the sample's), output, sample, or a field"));
  args.push_back(arg::text("text_field", "", "the text judged (default: the sample's reference text)"));
  return args;
}

JudgeInput judge_input(const Args& args) { return {args.text("audio"), args.text("text_field")}; }

const EvaluatorClasses::Registration kAqaScoreClass{
    {Kind::evaluator, "aqascore",
     "AQAScore: p(yes) of an audio-language judge asked a yes/no question about audio and text, from its first "
     "token's log-probabilities; pairwise and CompA modes",
     judge_input({arg::required_reference("judge", Kind::model, "the audio-language model (openai_chat with logprobs)"),
                  arg::reference("prompt", Kind::prompt, "aqascore-contains",
                                 "the question (a chat prompt: {{ audio }}, and the text as {{ reference }} or {{ text }})"),
                  arg::choice("mode", "single", {"single", "pair_audio", "pair_text", "compa"},
                              "single; pair_audio (fields audio_a, audio_b), pair_text (text_a, text_b): 1 when the "
                              "preferred one matches label_field; compa (audio_a, audio_b, text_a, text_b): text, audio "
                              "and group scores"),
                  arg::text("label_field", "preferred", "pair modes: the field saying a or b"),
                  arg::number("tie_credit", 0.5,
                              "pair modes: credit for a tie, 0.5 as pairwise_accuracy counts it (what reproduces "
                              "AQAScore's printed pair accuracies), or 0 as its text words it")
                      .at_least(0)
                      .below(1)})},
    [](const Args& args, const Registry& registry, const std::shared_ptr<ScoringModels>& scoring) -> std::unique_ptr<Evaluator> {
      const std::string mode = args.text("mode");
      const auto m = mode == "single" ? AqaScore::Mode::single : mode == "pair_audio" ? AqaScore::Mode::pair_audio
                     : mode == "pair_text" ? AqaScore::Mode::pair_text : AqaScore::Mode::compa;
      return std::make_unique<AqaScore>(scoring, args.text("judge"), Prompt::load(registry, args.text("prompt")), m,
                                        judge_input(args), args.text("label_field"), args.number("tie_credit"));
    }};

const EvaluatorClasses::Registration kAnswerAqaScoreClass{
    {Kind::evaluator, "answer_aqascore",
     "AQAScore of the model under test: p(yes) from its answer's first-token log-probabilities (run a judge as "
     "--model with an AQAScore question as the prompt)",
     {}},
    [](const Args&, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<AnswerAqaScore>();
    }};

const EvaluatorClasses::Registration kAnswerVerdictClass{
    {Kind::evaluator, "answer_verdict",
     "A true or false verdict the model under test states in its answer's JSON object (a holistic judge's "
     "\"Consistency\"): 1 or 0, for judge_accuracy",
     {arg::required_text("field", "the JSON field holding the verdict")}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<AnswerVerdict>(args.text("field"));
    }};

const EvaluatorClasses::Registration kRubricAnswersClass{
    {Kind::evaluator, "rubric_answers",
     "The model under test's yes/no answers to a sample's rubric questions asked at once (AnyAudio-Judge's generate "
     "mode, a JSON list of {id, answer, evidence}): the share of yes among those it answered, for judge_accuracy",
     {arg::text("items_field", "items", "the field holding the questions asked ({dimension, question, ...})")}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<RubricAnswers>(args.text("items_field"));
    }};

const EvaluatorClasses::Registration kAnswerRatingClass{
    {Kind::evaluator, "answer_rating",
     "A rating the model under test states as \"Score: <number>\" (a judge prompted for a score): the number, for "
     "human_correlation",
     {arg::text("label", "Score", "the word before the colon and the number"), rating_values_arg()}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<AnswerRating>(args.text("label"), rating_words(args));
    }};

const EvaluatorClasses::Registration kRubricJudgeClass{
    {Kind::evaluator, "rubric_judge",
     "AnyAudio-Judge's dynamic rubric: a text LLM decomposes the description into yes/no items and filters "
     "ungrounded ones; an audio LLM answers each; score = mean p(yes)",
     judge_input({arg::required_reference("decomposer", Kind::model, "the text LLM of stages 1 and 2"),
                  arg::required_reference("judge", Kind::model, "the audio LLM of stage 3"),
                  arg::choice("mode", "logits", {"logits", "generate"},
                              "logits (one request per item, p(yes) from logprobs) or generate (one request, a JSON "
                              "array of answers)"),
                  arg::boolean("filter", true, "stage 2: drop items the description does not support"),
                  arg::reference("decompose_prompt", Kind::prompt, "anyaudio-decompose",
                                 "stage 1 (the publishers' prompt of the sample's subset)"),
                  arg::reference("filter_prompt", Kind::prompt, "anyaudio-clean", "stage 2 (their hallucination filter)"),
                  arg::reference("judge_prompt", Kind::prompt, "anyaudio-judge", "stage 3, logits mode"),
                  arg::reference("generate_prompt", Kind::prompt, "anyaudio-generate", "stage 3, generate mode"),
                  arg::text("holistic_dimension", "整体",
                            "the dimension of the one item, the description itself, judged when no item is left "
                            "(decompose.py's fallback)")})},
    [](const Args& args, const Registry& registry, const std::shared_ptr<ScoringModels>& scoring) -> std::unique_ptr<Evaluator> {
      // Only the prompts this entry sends are loaded (each is read from the publishers' release).
      const bool generate = args.text("mode") == "generate", filter = args.boolean("filter");
      const auto used = [&](const char* key, bool sent) { return Prompt::load(registry, sent ? args.text(key) : ""); };
      RubricJudge::Prompts prompts{used("decompose_prompt", true), used("filter_prompt", filter),
                                   used("judge_prompt", !generate), used("generate_prompt", generate)};
      return std::make_unique<RubricJudge>(scoring, args.text("decomposer"), args.text("judge"), std::move(prompts),
                                           generate, filter, args.text("holistic_dimension"), judge_input(args));
    }};

const EvaluatorClasses::Registration kCaptionJudgeClass{
    {Kind::evaluator, "caption_judge",
     "AudioCapBench's LLM judge: accuracy, completeness and hallucination (0-10, 10 = none) of a caption against the "
     "references; overall = their mean",
     {arg::required_reference("judge", Kind::model, "the text LLM"),
      arg::reference("prompt", Kind::prompt, "caption-judge"), references_field_arg()}},
    [](const Args& args, const Registry& registry, const std::shared_ptr<ScoringModels>& scoring) -> std::unique_ptr<Evaluator> {
      auto e = std::make_unique<CaptionJudge>(scoring, args.text("judge"), Prompt::load(registry, args.text("prompt")));
      e->references_field = args.text("references_field");
      return e;
    }};

const EvaluatorClasses::Registration kTextRatingClass{
    {Kind::evaluator, "text_rating",
     "A text LLM's rating of the model's answer against the sample's text, stated as \"Score: <number>\" (AQAScore's "
     "cascade setup: the judge's caption rated against the description)",
     {arg::required_reference("judge", Kind::model, "the text LLM"),
      arg::required_reference("prompt", Kind::prompt, "what it is asked: {{ reference }} the text, {{ prediction }} the answer"),
      arg::text("label", "Score", "the word before the colon and the number"), rating_values_arg(),
      arg::texts("answers", {},
                 "names for the model's answers when its prompt asks once per clip (a JSON array): the judge's "
                 "prompt reads each by its name, in the clips' order"),
      arg::boolean("reads_reference", true,
                   "whether the judge's prompt reads the sample's reference text; false for samples that have none "
                   "(two captions of a clip: the prompt reads their fields)")}},
    [](const Args& args, const Registry& registry, const std::shared_ptr<ScoringModels>& scoring) -> std::unique_ptr<Evaluator> {
      return std::make_unique<TextRating>(scoring, args.text("judge"), Prompt::load(registry, args.text("prompt")),
                                          args.text("label"), rating_words(args), args.strings("answers"),
                                          args.boolean("reads_reference"));
    }};

}  // namespace

}  // namespace aeval::pipeline
