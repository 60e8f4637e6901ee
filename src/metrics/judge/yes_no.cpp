#include "aeval/metrics/yes_no.hpp"

#include <cctype>
#include <cmath>
#include <fmt/format.h>

#include "aeval/error.hpp"

namespace aeval::metrics {

namespace {

// "yes", "no" or "" for a token as a tokenizer may spell it.
std::string word_of(const std::string& token) {
  const auto first = token.find_first_not_of(" \t\r\n\xC4\xA0\xE2\x96\x81");  // also BPE's Ġ and SentencePiece's ▁
  if (first == std::string::npos) return "";
  std::string w = token.substr(first);
  w.erase(w.find_last_not_of(" \t\r\n") + 1);
  for (char& c : w) c = char(std::tolower(static_cast<unsigned char>(c)));
  return w == "yes" || w == "no" ? w : "";
}

void consider(const nlohmann::json& entry, YesNoProbability& out) {
  if (!entry.is_object() || !entry.contains("token") || !entry["token"].is_string() || !entry.contains("logprob") ||
      !entry["logprob"].is_number())
    return;
  const std::string word = word_of(entry["token"]);
  if (word.empty()) return;
  const double lp = entry["logprob"];
  auto& slot = word == "yes" ? out.logprob_yes : out.logprob_no;
  if (!slot || lp > *slot) slot = lp;
}

}  // namespace

YesNoProbability yes_no_probability(const nlohmann::json& logprobs) {
  if (!logprobs.is_object() || !logprobs.contains("content") || !logprobs["content"].is_array() ||
      logprobs["content"].empty())
    throw Error(ErrorCategory::model, "the judge's answer carries no logprobs.content (is logprobs enabled on the model "
                                      "entry, with top_logprobs > 0?)");
  const nlohmann::json& first = logprobs["content"][0];
  YesNoProbability out;
  consider(first, out);
  if (first.contains("top_logprobs") && first["top_logprobs"].is_array())
    for (const auto& alternative : first["top_logprobs"]) consider(alternative, out);
  if (!out.logprob_yes && !out.logprob_no)
    throw Error(ErrorCategory::model, fmt::format("neither yes nor no is among the first token's candidates ({})",
                                                  first.dump().substr(0, 300)));
  if (!out.logprob_no) out.p_yes = 1;
  else if (!out.logprob_yes) out.p_yes = 0;
  else out.p_yes = 1 / (1 + std::exp(*out.logprob_no - *out.logprob_yes));  // e^y / (e^y + e^n), overflow-safe
  return out;
}

}  // namespace aeval::metrics
