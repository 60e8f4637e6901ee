#include "aeval/models/dataset_only.hpp"

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

}  // namespace aeval::models
