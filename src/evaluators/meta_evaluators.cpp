// Judges judged against people (meta-evaluation): a scorer's decisions against
// yes/no labels, its agreement with human ratings (correlation per clip, pairs
// of clips for one text, ROC-AUC on binary feedback). Each reads the score of
// an evaluator listed before it in the task, so any scorer can be judged:
// AQAScore, CLAPScore, AudioBERTScore, a rubric or caption judge. CompA's
// scores put together the four samples of an item; `mean_of` makes a column of
// a paper's table from an earlier evaluator's numbers (one subset, one criterion).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "aeval/error.hpp"
#include "datasets/field_filter.hpp"
#include "aeval/metrics/classification.hpp"
#include "aeval/metrics/correlation.hpp"
#include "aeval/text/unicode.hpp"
#include "evaluators/evaluator.hpp"
#include "registry/args.hpp"
#include "registry/registry.hpp"

namespace aeval::pipeline {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;
using registry::Kind;
using registry::Registry;
using registry::yaml_as_python;

using nlohmann::json;

namespace {

// How a leaderboard ranks these statistics (accuracy, a correlation, ROC-AUC: higher is better) and puts
// them on one scale with a suite's other tasks.
json percent_scale() { return {{"rule", "100·x"}, {"factor", 100}, {"offset", 0}}; }

// The score of an evaluator listed earlier in the task.
const json& earlier_score(const Scored& s, const std::string& evaluator, const std::string& asking) {
  if (!s.earlier.contains(evaluator))
    throw Error(ErrorCategory::config, fmt::format("{} reads the scores of '{}', which must be listed before it in the "
                                                   "task's evaluators",
                                                   asking, evaluator));
  return s.earlier[evaluator];
}

// The scored value of that evaluator for this sample, which must be a number.
double earlier_value(const Scored& s, const std::string& evaluator, const std::string& asking) {
  const json& v = earlier_score(s, evaluator, asking)["value"];
  if (!v.is_number())
    throw Error(ErrorCategory::data, fmt::format("sample '{}': {} needs a number from '{}', which gave {}", s.sample.id,
                                                 asking, evaluator, v.dump()));
  return v.get<double>();
}

// A human judgement held by the sample: a number (a rating, 0/1 feedback) or a label.
const json& human_field(const Scored& s, const std::string& field, const std::string& asking, bool numeric) {
  static const json missing;
  const json& v = s.sample.fields.is_object() && s.sample.fields.contains(field) ? s.sample.fields[field] : missing;
  if (numeric ? !v.is_number() : !(v.is_number() || v.is_string() || v.is_boolean()))
    throw Error(ErrorCategory::data, fmt::format("sample '{}': {} needs {} in field '{}'", s.sample.id, asking,
                                                 numeric ? "a number" : "a label", field));
  return v;
}

// A judge's yes/no decision against a label. With `group_field`, the samples sharing its value are one
// item judged together (AnyAudio-Judge Bench: a row's rubric questions), decided on all their scores or
// their mean; with `average_over`, the accuracy is the mean of the accuracies per value of that field (the
// paper's Avg over subsets); with `only`, it counts the samples whose field has the value given (a column
// of the paper's table).
// `only`: the samples an evaluator counts (none: all).
using Only = std::optional<datasets::FieldFilter>;

bool outside(const Scored& s, const Only& only, const std::string& asking) {
  return only && !only->admits(human_field(s, only->field, asking, false));
}

class JudgeAccuracy final : public Evaluator {
 public:
  JudgeAccuracy(std::string score_of, std::string label_field, bool all_items, double threshold, std::string group_field,
                std::string average_over, Only only)
      : score_of_(std::move(score_of)), label_field_(std::move(label_field)), all_items_(all_items),
        threshold_(threshold), group_field_(std::move(group_field)), average_over_(std::move(average_over)),
        only_(std::move(only)) {}

  json score(const Scored& s) const override {
    if (outside(s, only_, name)) return {{"value", nullptr}, {"outside", true}};
    const json& judged = earlier_score(s, score_of_, name);
    const json& field = human_field(s, label_field_, name, false);
    const std::string label = text::lower(field.is_string() ? field.get<std::string>() : field.dump());
    if (label != "yes" && label != "no")
      throw Error(ErrorCategory::data, fmt::format("sample '{}': label '{}' is not yes or no", s.sample.id, label));
    json out = {{"label", label}};
    if (!average_over_.empty()) out["over"] = human_field(s, average_over_, name, false);
    if (!group_field_.empty()) {  // decided with the rest of its group, in corpus()
      out.update({{"value", nullptr}, {"system", earlier_value(s, score_of_, name)},
                  {"group", human_field(s, group_field_, name, false)}});
      return out;
    }
    bool yes = false;
    if (all_items_) {
      if (!judged.contains("items")) throw Error(ErrorCategory::config, fmt::format("{}: '{}' has no rubric items", name, score_of_));
      yes = true;
      for (const auto& item : judged["items"]) yes = yes && item.value("answer", "") == "yes";
    } else {
      yes = earlier_value(s, score_of_, name) >= threshold_;
    }
    out.update({{"value", (yes ? "yes" : "no") == label ? 1.0 : 0.0}, {"decision", yes ? "yes" : "no"}});
    return out;
  }
  std::optional<SampleStatistics> statistics() const override {
    if (group_field_.empty() && average_over_.empty() && !only_) return Evaluator::statistics();
    return std::nullopt;  // decided per group or item
  }
  json corpus(const Records& records) const override {
    if (group_field_.empty() && average_over_.empty() && !only_) return Evaluator::corpus(records);
    struct Item {
      double sum = 0, min = 1;
      std::size_t n = 0;
      std::string label, over;
      bool consistent = true;
    };
    std::map<std::string, Item> items;  // one per group, or per sample
    for (const json* r : records) {
      const json& p = (*r)["scores"][name];
      if (p.contains("outside")) continue;
      const std::string key = group_field_.empty() ? (*r)["id"].dump() : p["group"].dump();
      Item& item = items[key];
      const std::string over = !p.contains("over") ? "" : p["over"].is_string() ? p["over"].get<std::string>() : p["over"].dump();
      if (item.n > 0 && (item.label != p["label"].get<std::string>() || item.over != over)) item.consistent = false;
      item.label = p["label"].get<std::string>(), item.over = over;
      const double v = group_field_.empty() ? p["value"].get<double>() : p["system"].get<double>();
      item.sum += v, item.min = item.n == 0 ? v : std::min(item.min, v);
      ++item.n;
    }
    std::map<std::string, std::pair<double, std::size_t>> per_value;  // correct, judged
    std::size_t inconsistent = 0;
    for (const auto& [key, item] : items) {
      if (!item.consistent) {  // one group with two labels cannot be scored
        ++inconsistent;
        continue;
      }
      const bool yes = (all_items_ ? item.min : item.sum / double(item.n)) >= threshold_;
      const double correct = group_field_.empty() ? item.sum : yes == (item.label == "yes") ? 1 : 0;
      per_value[item.over].first += correct;
      ++per_value[item.over].second;
    }
    if (per_value.empty()) return {{"value", nullptr}, {"items", 0}, {"inconsistent_items", inconsistent}};
    double total = 0;
    json accuracies = json::object();
    std::size_t judged = 0;
    for (const auto& [over, counts] : per_value) {
      const double accuracy = counts.first / double(counts.second);
      total += accuracy;
      judged += counts.second;
      if (!average_over_.empty()) accuracies[over] = accuracy;
    }
    json out = {{"value", total / double(per_value.size())}, {"items", judged}, {"inconsistent_items", inconsistent}};
    if (!average_over_.empty()) out["accuracy_per_" + average_over_] = accuracies;
    return out;
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    json j = {{"name", name}, {"class", "judge_accuracy"}, {"score_of", score_of_}, {"label_field", label_field_},
              {"rule", !group_field_.empty() ? fmt::format("{} score of a group >= {}", all_items_ ? "every" : "the mean",
                                                           threshold_)
                       : all_items_ ? "all rubric items answered yes"
                                    : fmt::format("score >= {}", threshold_)},
              {"scale", percent_scale()}};
    if (!group_field_.empty()) j["group_field"] = group_field_;
    if (!average_over_.empty()) j["average_over"] = average_over_;
    if (only_) j["only"] = only_->to_json();
    return j;
  }

 private:
  std::string score_of_, label_field_;
  bool all_items_;
  double threshold_;
  std::string group_field_, average_over_;
  Only only_;
};

// The mean of one number an earlier evaluator gives each sample (its value, or a criterion such as the
// caption judge's accuracy) over the samples `only` keeps: AudioCapBench's Table 2, the judge per category.
class MeanOf final : public Evaluator {
 public:
  MeanOf(std::string score_of, std::string key, Only only)
      : score_of_(std::move(score_of)), key_(std::move(key)), only_(std::move(only)) {}

  json score(const Scored& s) const override {
    if (outside(s, only_, name)) return {{"value", nullptr}};
    const json& v = earlier_score(s, score_of_, name)[key_];
    if (!v.is_number())
      throw Error(ErrorCategory::data, fmt::format("sample '{}': {} needs a number under '{}' of '{}', which gave {}",
                                                   s.sample.id, name, key_, score_of_, v.dump()));
    return {{"value", v}};
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    json j = {{"name", name}, {"class", "mean_of"}, {"score_of", score_of_}, {"key", key_}};
    if (only_) j["only"] = only_->to_json();
    return j;
  }

 private:
  std::string score_of_, key_;
  Only only_;
};

// A corpus statistic over (score, human) pairs: alone, a sample keeps its pair.
metrics::Correlation correlate(const std::string& method, const std::vector<double>& x, const std::vector<double>& y) {
  return method == "pearson" ? metrics::pearson(x, y) : method == "spearman" ? metrics::spearman(x, y) : metrics::kendall(x, y);
}

// The corpus result of a correlation over (system, human) pairs.
json correlation(const std::string& method, const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() < 2) return {{"value", nullptr}, {"n", x.size()}};
  const auto c = correlate(method, x, y);
  return {{"value", number_or_null(c.statistic)}, {"pvalue", number_or_null(c.pvalue)}, {"n", x.size()}};
}

class HumanCorrelation final : public Evaluator {
 public:
  HumanCorrelation(std::string score_of, std::string human_field, std::string method)
      : score_of_(std::move(score_of)), human_field_(std::move(human_field)), method_(std::move(method)) {}

  json score(const Scored& s) const override {
    return {{"value", nullptr}, {"system", earlier_value(s, score_of_, name)},
            {"human", human_field(s, human_field_, name, true)}};
  }
  json corpus(const Records& records) const override {
    std::vector<double> x, y;
    for (const json* r : records) {
      const json& p = (*r)["scores"][name];
      if (p["system"].is_number() && p["human"].is_number()) x.push_back(p["system"]), y.push_back(p["human"]);
    }
    return correlation(method_, x, y);
  }
  // (system, human, whether both are numbers): the correlation of the chosen pairs that have both, in order.
  std::optional<SampleStatistics> statistics() const override {
    const auto pairs = [](const SampleStatistics::Table& table, const std::vector<std::size_t>& chosen) {
      std::pair<std::vector<double>, std::vector<double>> xy;
      for (std::size_t i : chosen)
        if (table[3 * i + 2] != 0) xy.first.push_back(table[3 * i]), xy.second.push_back(table[3 * i + 1]);
      return xy;
    };
    return SampleStatistics{
        3,
        [name = name](const json& record, double* row) {
          const json& p = record["scores"][name];
          const bool both = p["system"].is_number() && p["human"].is_number();
          row[0] = both ? p["system"].get<double>() : 0.0;
          row[1] = both ? p["human"].get<double>() : 0.0;
          row[2] = both;
        },
        [method = method_, pairs](const SampleStatistics::Table& table, const std::vector<std::size_t>& chosen)
            -> std::optional<double> {
          const auto [x, y] = pairs(table, chosen);
          if (x.size() < 2) return std::nullopt;
          const auto c = correlate(method, x, y);
          if (!std::isfinite(c.statistic)) return std::nullopt;
          return c.statistic;
        },
        [method = method_, pairs](const SampleStatistics::Table& table) {
          const auto [x, y] = pairs(table, every_row(table, 3));
          return correlation(method, x, y);
        },
        nullptr};  // not a function of sums: the pairs are correlated
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "human_correlation"}, {"score_of", score_of_}, {"human_field", human_field_},
            {"method", method_}, {"reference", "SciPy 1.10 pearsonr / spearmanr / kendalltau (tau-b)"},
            {"scale", percent_scale()}};
  }

 private:
  std::string score_of_, human_field_, method_;
};

// RELATE-Pair and Baton-Pair (AQAScore, seed 003 §4): every two clips judged
// against the same text whose human scores differ by more than
// `min_difference` form a pair; the scorer is right on a pair when it scores
// higher the clip people scored higher.
class PairwiseAccuracy final : public Evaluator {
 public:
  PairwiseAccuracy(std::string score_of, std::string human_field, std::string group_field, double min_difference,
                   double tie_credit, Only only)
      : score_of_(std::move(score_of)),
        human_field_(std::move(human_field)),
        group_field_(std::move(group_field)),
        min_difference_(min_difference),
        tie_credit_(tie_credit),
        only_(std::move(only)) {}

  json score(const Scored& s) const override {
    if (outside(s, only_, name)) return {{"value", nullptr}, {"outside", true}};
    const json& group = group_field_.empty() ? json(reference_text(s.sample)) : human_field(s, group_field_, name, false);
    return {{"value", nullptr}, {"system", earlier_value(s, score_of_, name)},
            {"human", human_field(s, human_field_, name, true)}, {"group", group}};
  }
  std::optional<SampleStatistics> statistics() const override { return std::nullopt; }  // pairs within a text's group
  json corpus(const Records& records) const override {
    std::map<std::string, std::vector<std::pair<double, double>>> groups;  // group → (human, system), in record order
    for (const json* r : records) {
      const json& p = (*r)["scores"][name];
      if (p["system"].is_number() && p["human"].is_number())
        groups[p["group"].is_string() ? p["group"].get<std::string>() : p["group"].dump()].emplace_back(p["human"], p["system"]);
    }
    std::vector<double> preferred, other;
    for (const auto& [group, clips] : groups)
      for (std::size_t i = 0; i < clips.size(); ++i)
        for (std::size_t j = i + 1; j < clips.size(); ++j) {
          const auto& [hi, si] = clips[i];
          const auto& [hj, sj] = clips[j];
          if (std::abs(hi - hj) <= min_difference_) continue;
          preferred.push_back(hi > hj ? si : sj);
          other.push_back(hi > hj ? sj : si);
        }
    if (preferred.empty()) return {{"value", nullptr}, {"pairs", 0}, {"clip_groups", groups.size()}};
    return {{"value", metrics::pairwise_preference_accuracy(preferred, other, tie_credit_)},
            {"pairs", preferred.size()},
            {"clip_groups", groups.size()}};
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    json j = {{"name", name}, {"class", "pairwise_accuracy"}, {"score_of", score_of_}, {"human_field", human_field_},
            {"group_field", group_field_.empty() ? "reference" : group_field_},
            {"pairs", fmt::format("same group, human scores differing by more than {}", min_difference_)},
            {"tie_credit", tie_credit_}, {"scale", percent_scale()}};
    if (only_) j["only"] = only_->to_json();
    return j;
  }

 private:
  std::string score_of_, human_field_, group_field_;
  double min_difference_, tie_credit_;
  Only only_;
};

// Baton's binary feedback (AQAScore, seed 003 §4): how well the scores rank
// the clips people preferred above those they rejected, as scikit-learn's
// roc_auc_score does (the greater label is the positive one, as numpy sorts them).
class HumanRocAuc final : public Evaluator {
 public:
  HumanRocAuc(std::string score_of, std::string label_field)
      : score_of_(std::move(score_of)), label_field_(std::move(label_field)) {}

  json score(const Scored& s) const override {
    return {{"value", nullptr}, {"system", earlier_value(s, score_of_, name)},
            {"label", human_field(s, label_field_, name, false)}};
  }
  std::optional<SampleStatistics> statistics() const override { return std::nullopt; }  // labels may be any two strings
  json corpus(const Records& records) const override {
    std::vector<double> scores, numbers;
    std::vector<std::string> texts;
    for (const json* r : records) {
      const json& p = (*r)["scores"][name];
      if (!p["system"].is_number()) continue;
      scores.push_back(p["system"]);
      if (p["label"].is_boolean()) numbers.push_back(p["label"].get<bool>() ? 1.0 : 0.0);
      else if (p["label"].is_number()) numbers.push_back(p["label"].get<double>());
      else texts.push_back(p["label"]);
    }
    if (!numbers.empty() && !texts.empty())
      throw Error(ErrorCategory::data, fmt::format("{}: field '{}' mixes numbers and text", name, label_field_));
    // One class alone (a small corpus, a bootstrap resample) has no ROC curve: no value, as for a correlation of n < 2.
    const std::size_t classes = texts.empty() ? std::set<double>(numbers.begin(), numbers.end()).size()
                                              : std::set<std::string>(texts.begin(), texts.end()).size();
    if (classes < 2) return {{"value", nullptr}, {"n", scores.size()}};
    const auto positive = texts.empty() ? metrics::positive_labels(numbers) : metrics::positive_labels(texts);
    return {{"value", metrics::roc_auc(positive, scores)}, {"n", scores.size()}};
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    return {{"name", name}, {"class", "human_roc_auc"}, {"score_of", score_of_}, {"label_field", label_field_},
            {"reference", "scikit-learn 1.2 roc_auc_score"}, {"scale", percent_scale()}};
  }

 private:
  std::string score_of_, label_field_;
};

// CompA's text, audio and group scores (Winoground's), from the four samples of each item that
// caption_pairs makes (clip a with caption c): the text score counts items where each clip scores its
// own caption higher, the audio score items where each caption scores its own clip higher, the group
// score items where both hold, as CompA's evaluation script compares similarities.
class WinogroundScore final : public Evaluator {
 public:
  enum class Which { text, audio, group };
  WinogroundScore(std::string score_of, Which which) : score_of_(std::move(score_of)), which_(which) {}

  json score(const Scored& s) const override {
    const json& f = s.sample.fields;
    if (!f.is_object() || !f.contains("item") || !f.contains("clip") || !f.contains("caption"))
      throw Error(ErrorCategory::data, fmt::format("sample '{}': {} needs the fields item, clip and caption (a "
                                                   "caption_pairs dataset)",
                                                   s.sample.id, name));
    return {{"value", nullptr}, {"system", earlier_value(s, score_of_, name)}, {"item", f["item"]},
            {"clip", f["clip"]}, {"caption", f["caption"]}};
  }
  std::optional<SampleStatistics> statistics() const override { return std::nullopt; }  // four samples make an item
  json corpus(const Records& records) const override {
    std::map<std::string, std::array<std::optional<double>, 4>> items;  // item → s[clip][caption], row-major
    for (const json* r : records) {
      const json& p = (*r)["scores"][name];
      const int clip = p["clip"].get<int>(), caption = p["caption"].get<int>();
      if (clip < 1 || clip > 2 || caption < 1 || caption > 2) continue;
      items[p["item"].is_string() ? p["item"].get<std::string>() : p["item"].dump()][std::size_t((clip - 1) * 2 + caption - 1)] =
          p["system"].get<double>();
    }
    std::vector<metrics::WinogroundItem> complete;
    for (const auto& [item, s] : items)
      if (s[0] && s[1] && s[2] && s[3]) complete.push_back({*s[0], *s[1], *s[2], *s[3]});
    if (complete.empty()) return {{"value", nullptr}, {"items", 0}, {"incomplete_items", items.size()}};
    const auto w = metrics::winoground(complete);
    return {{"value", which_ == Which::text ? w.text : which_ == Which::audio ? w.audio : w.group},
            {"text_score", w.text},
            {"audio_score", w.audio},
            {"group_score", w.group},
            {"items", complete.size()},
            {"incomplete_items", items.size() - complete.size()}};
  }
  bool compares_with_references() const override { return false; }
  json identity() const override {
    static const char* names[] = {"text", "audio", "group"};
    return {{"name", name}, {"class", "winoground_score"}, {"score_of", score_of_}, {"score", names[int(which_)]},
            {"reference", "CompA evaluation/benchmark_eval.py (strict comparisons; items missing a sample left out)"},
            {"scale", percent_scale()}};
  }

 private:
  std::string score_of_;
  Which which_;
};

ArgSpec score_of_arg() { return arg::required_text("score_of", "the evaluator whose scores are judged, listed earlier"); }

const EvaluatorClasses::Registration kJudgeAccuracyClass{
    {Kind::evaluator, "judge_accuracy", "Accuracy of a judge's yes/no decision against a label (judge benchmarks)",
     {score_of_arg(), arg::text("label_field", "label", "the field holding yes or no"),
      arg::choice("rule", "threshold", {"threshold", "all_items_yes"},
                  "threshold (score >= threshold) or all_items_yes (rubric judges)"),
      arg::number("threshold", 0.5),
      arg::text("group_field", "",
                "samples sharing this field's value are one item, decided on their mean score (a row's rubric "
                "questions: row_id)"),
      arg::text("average_over", "", "the mean of the accuracies per value of this field (e.g. subset)"), datasets::field_filter_arg("{subset: music}")}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<JudgeAccuracy>(args.text("score_of"), args.text("label_field"),
                                             args.text("rule") == "all_items_yes", args.number("threshold"),
                                             args.text("group_field"), args.text("average_over"), datasets::field_filter(args));
    }};

const EvaluatorClasses::Registration kMeanOfClass{
    {Kind::evaluator, "mean_of",
     "The mean of one number an earlier evaluator gives each sample, over the samples `only` keeps: a column of a "
     "paper's table (the caption judge's accuracy, its overall score on music)",
     {score_of_arg(), arg::text("key", "value", "which of its numbers (value, or e.g. accuracy)"), datasets::field_filter_arg("{subset: music}")}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<MeanOf>(args.text("score_of"), args.text("key"), datasets::field_filter(args));
    }};

const EvaluatorClasses::Registration kHumanCorrelationClass{
    {Kind::evaluator, "human_correlation",
     "Correlation between an evaluator's scores and human ratings over the corpus (bootstrap it for intervals)",
     {score_of_arg(), arg::text("human_field", "human_score", "the field holding the human rating"),
      arg::choice("method", "pearson", {"pearson", "spearman", "kendall"}, "pearson, spearman or kendall (tau-b)")}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<HumanCorrelation>(args.text("score_of"), args.text("human_field"), args.text("method"));
    }};

const EvaluatorClasses::Registration kPairwiseAccuracyClass{
    {Kind::evaluator, "pairwise_accuracy",
     "Pairs of clips for one text whose human scores differ enough: how often the scorer prefers the one people "
     "did (RELATE-Pair, Baton-Pair)",
     {score_of_arg(), arg::text("human_field", "human_score", "the field holding the human score (a rating, or 1/0)"),
      arg::text("group_field", "", "the field whose equal values make a group (default: the sample's reference text)"),
      arg::number("min_difference", 2.0, "a pair's human scores differ by more than this").at_least(0),
      arg::number("tie_credit", 0.5,
                  "credit for a pair the scorer ties: 0.5, which reproduces AQAScore's printed pair accuracies "
                  "(docs/seed-methods.md), or 0, as its text words it (a higher score is needed)")
          .at_least(0)
          .below(1),
      datasets::field_filter_arg("{subset: music}")}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<PairwiseAccuracy>(args.text("score_of"), args.text("human_field"),
                                                args.text("group_field"), args.number("min_difference"),
                                                args.number("tie_credit"), datasets::field_filter(args));
    }};

const EvaluatorClasses::Registration kHumanRocAucClass{
    {Kind::evaluator, "human_roc_auc",
     "ROC-AUC of an evaluator's scores against binary human feedback, as scikit-learn computes it (Baton)",
     {score_of_arg(),
      arg::text("label_field", "label", "the field holding the feedback: two values, the greater one preferred (1/0)")}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      return std::make_unique<HumanRocAuc>(args.text("score_of"), args.text("label_field"));
    }};

const EvaluatorClasses::Registration kWinogroundScoreClass{
    {Kind::evaluator, "winoground_score",
     "CompA's text, audio or group score over the four samples of each caption_pairs item: each clip scoring its "
     "own caption higher, each caption its own clip, or both",
     {score_of_arg(), arg::choice("score", "group", {"text", "audio", "group"}, "which of the three is the value")}},
    [](const Args& args, const Registry&, const std::shared_ptr<ScoringModels>&) -> std::unique_ptr<Evaluator> {
      const std::string which = args.text("score");
      return std::make_unique<WinogroundScore>(args.text("score_of"), which == "text"    ? WinogroundScore::Which::text
                                                                      : which == "audio" ? WinogroundScore::Which::audio
                                                                                         : WinogroundScore::Which::group);
    }};

}  // namespace

}  // namespace aeval::pipeline
