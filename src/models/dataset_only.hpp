#pragma once
// No model at all: for tasks whose samples are scored as they are, such as
// judge benchmarks (the judge is the evaluator; the dataset holds the audio,
// the text and the human label). Every answer is empty.
#include <memory>

#include "aeval/models/model.hpp"

namespace aeval::models {

// `max_concurrency` bounds how many samples are scored at once (each may
// make judge requests).
std::unique_ptr<Model> make_dataset_only(int max_concurrency);

}  // namespace aeval::models
