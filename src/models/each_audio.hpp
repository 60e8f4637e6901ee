#pragma once
// A model asked once per audio clip of a request (a prompt with `each_audio`, such as AQAScore's cascade setup on
// pairs, which captions each clip of a pair on its own).
#include <memory>

#include "aeval/models/model.hpp"

namespace aeval::models {

// Each request it is given goes to `model` as one request a clip: the same messages with their text and that clip
// alone, in the clips' order. The response's text is a JSON array of the answers' texts in that order (compute
// seconds added up); the first error fails it. A request of one clip or none goes to `model` as it is. Its
// identity is the model's with "asked": "once per audio clip".
std::unique_ptr<Model> ask_each_audio(std::unique_ptr<Model> model);
// The same over a model the caller keeps alive longer (a judge that other evaluators ask whole).
std::unique_ptr<Model> ask_each_audio(Model& model);

}  // namespace aeval::models
