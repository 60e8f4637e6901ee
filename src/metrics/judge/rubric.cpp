#include "aeval/metrics/judges.hpp"

#include <fmt/format.h>

#include "aeval/error.hpp"
#include "aeval/text/json_in_text.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::metrics {

using nlohmann::json;

namespace {

std::string string_in(const json& o, std::initializer_list<const char*> keys) {
  for (const char* k : keys)
    if (o.contains(k) && o[k].is_string()) return o[k];
  return "";
}

}  // namespace

std::vector<RubricItem> parse_rubric_items(const std::string& answer) {
  std::optional<json> list;
  if (const auto object = text::find_json(answer, '{'))
    for (const char* key : {"items", "questions", "question_list", "Question_List", "判断题列表"})
      if (object->contains(key) && (*object)[key].is_array()) list = (*object)[key];
  if (!list) list = text::find_json(answer, '[');
  if (!list) throw Error(ErrorCategory::model, fmt::format("the decomposer's answer holds no list of rubric items: {}",
                                                           answer.substr(0, 300)));
  std::vector<RubricItem> items;
  for (const auto& it : *list) {
    if (!it.is_object()) continue;
    RubricItem item{string_in(it, {"dimension", "维度"}), string_in(it, {"question", "题目"}), string_in(it, {"basis", "依据"})};
    if (!item.question.empty()) items.push_back(std::move(item));
  }
  return items;
}

json rubric_items_json(const std::vector<RubricItem>& items) {
  json out = json::array();
  for (std::size_t i = 0; i < items.size(); ++i)
    out.push_back({{"id", i}, {"dimension", items[i].dimension}, {"question", items[i].question}, {"basis", items[i].basis}});
  return out;
}

std::vector<bool> parse_rubric_filter(const std::string& answer, std::size_t items) {
  const auto object = text::find_json(answer, '{');
  if (!object || !object->contains("results") || !(*object)["results"].is_array())
    throw Error(ErrorCategory::model,
                fmt::format("the rubric filter's answer holds no results list: {}", answer.substr(0, 300)));
  std::vector<bool> keep(items, true);
  for (const auto& r : (*object)["results"])
    if (r.is_object() && r.contains("id") && r["id"].is_number_unsigned() && r["id"].get<std::size_t>() < items)
      keep[r["id"].get<std::size_t>()] = text::lower(string_in(r, {"judgment", "decision"})) == "keep";
  return keep;
}

std::vector<RubricAnswer> parse_rubric_answers(const std::string& answer, std::size_t items) {
  std::vector<RubricAnswer> out(items);
  const auto answers = text::find_json(answer, '[');
  if (!answers) return out;
  for (std::size_t k = 0; k < answers->size(); ++k) {
    const json& a = (*answers)[k];
    if (!a.is_object()) continue;
    const std::size_t id = a.contains("id") && a["id"].is_number_unsigned() ? a["id"].get<std::size_t>() : k;
    const std::string said = text::lower(string_in(a, {"answer"}));
    if (id >= items || (said != "yes" && said != "no")) continue;
    out[id] = {said == "yes", string_in(a, {"evidence"})};
  }
  return out;
}

double rubric_score(const std::vector<double>& answered_p_yes) {
  if (answered_p_yes.empty()) throw Error(ErrorCategory::model, "the judge answered none of the rubric items");
  double sum = 0;
  for (double p : answered_p_yes) sum += p;
  return sum / double(answered_p_yes.size());
}

}  // namespace aeval::metrics
