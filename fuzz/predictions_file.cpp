// The `predictions_file` model: a JSONL file of {id, prediction} rows that
// another system produced, answered by sample id.
#include "aeval/error.hpp"
#include "input_file.hpp"
#include "models/predictions_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  aeval::models::PredictionsFileConfig config;
  config.path = aeval::fuzz::input_file("predictions.jsonl", data, size);
  try {
    const auto model = aeval::models::make_predictions_file(config);
    aeval::models::Request request;
    request.sample_id = "1";
    model->infer_and_wait(request);
  } catch (const aeval::Error&) {
  }
  return 0;
}
