#pragma once
// The probability a judge says "yes", from the log-probabilities of its
// first answer token (OpenAI format: logprobs.content[0] with its
// top_logprobs). Every variant of each word counts (case, surrounding
// spaces: "Yes", " yes", "YES"); each word's log-probability is the largest
// among its variants, and p(yes) = e^yes / (e^yes + e^no), the two-way
// softmax AQAScore and AnyAudio-Judge use. A word absent from the list is
// treated as impossible; neither present is an error, not a 0.5.
#include <nlohmann/json.hpp>
#include <optional>

namespace aeval::metrics {

struct YesNoProbability {
  double p_yes = 0;
  std::optional<double> logprob_yes, logprob_no;  // the largest over each word's variants
};

// Throws aeval::Error (model) when the logprobs hold neither word or are not
// in OpenAI's format.
YesNoProbability yes_no_probability(const nlohmann::json& logprobs);

}  // namespace aeval::metrics
