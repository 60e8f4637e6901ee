#pragma once
// The metrics `aeval score` offers, each an adapter from line-aligned inputs
// to a metric function of the library.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeval/metrics/bleu.hpp"
#include "cli/score_inputs.hpp"

namespace aeval::cli {

struct ScoreOptions {
  metrics::BleuOptions bleu;
  metrics::ChrfOptions chrf;
  bool stem = false;
};

struct TextScorer {
  std::string name;
  std::string summary;  // one line for `aeval score --list`
  // Corpus result; fills per_sample (one object per segment) when given.
  nlohmann::json (*score)(const ScoreInput& input, const ScoreOptions& options, std::vector<nlohmann::json>* per_sample);
};

const std::vector<TextScorer>& text_scorers();
const TextScorer* find_text_scorer(const std::string& name);

}  // namespace aeval::cli
