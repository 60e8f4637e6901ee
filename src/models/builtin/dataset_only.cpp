#include <algorithm>
#include "models/dataset_only.hpp"
#include "models/model_classes.hpp"

namespace aeval::models {

namespace {

class DatasetOnly final : public Model {
 public:
  explicit DatasetOnly(int max_concurrency) : max_concurrency_(max_concurrency) {}
  void infer(Request, Completion done) override { done(nullptr, {}); }
  int input_sample_rate() const override { return 0; }
  int max_concurrency() const override { return max_concurrency_; }
  bool cacheable() const override { return false; }
  nlohmann::json identity() const override { return {{"backend", "dataset_only"}}; }

 private:
  int max_concurrency_;
};

}  // namespace

std::unique_ptr<Model> make_dataset_only(int max_concurrency) { return std::make_unique<DatasetOnly>(max_concurrency); }

namespace {
const ModelClasses::Registration kDatasetOnlyClass{
    {registry::Kind::model, "dataset_only",
     "No model: samples are scored as they are (judge benchmarks, correlation with human ratings); answers are empty",
     {registry::arg::integer("max_concurrency", 16, "samples scored at once (each may call judges)").at_least(1)}},
    [](const registry::Args& args) { return make_dataset_only(args.integer("max_concurrency")); }};
}  // namespace

}  // namespace aeval::models
