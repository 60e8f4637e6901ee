// Bootstrap intervals of UltraEval-Audio's own numbers (docs/benchmarks.md): 1,000 resamples of
// the per-sample dicts of a LibriSpeech-sized run (2,620 pairs), through UEA's PracticeWER (`wer`)
// and BLEU (`bleu`) aggregations read from ../shared/uea. Prints one cold aggregation (every text
// normalized or tokenized) and the whole bootstrap, in seconds.
//   build/bench/aeval_bench_uea_bootstrap [UEA_DIR]
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "aggregators/aggregator.hpp"
#include "evaluators/evaluator.hpp"
#include "uea/uea_entries.hpp"

namespace {

using aeval::registry::Kind;

double seconds_of(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::filesystem::path uea_dir = argc > 1 ? argv[1] : std::filesystem::path(AEVAL_SOURCE_DIR) / "../shared/uea";
  const aeval::uea::UeaRegistry uea(uea_dir);
  const std::vector<std::string> words = {"he",     "hoped", "there", "would",  "be",     "stew",  "for",
                                          "dinner", "turnips", "and", "carrots", "bruised", "potatoes", "mutton"};
  std::vector<nlohmann::json> records;
  for (std::size_t i = 0; i < 2620; ++i) {
    std::string ref, pred;
    for (std::size_t w = 0; w < 12 + i % 9; ++w) {
      if (w) ref.append(" "), pred.append(" ");
      ref.append(words[(i * 7 + w * 3) % words.size()]);
      pred.append(words[(i * 7 + w * 3 + (w % 5 == 0)) % words.size()]);
    }
    const std::string number = std::to_string(i);  // every pair a different one
    ref.append(" ").append(number);
    pred.append(" ").append(number);
    records.push_back({{"scores", {{"em", {{"uea", {{"pred", pred}, {"ref", ref}}}, {"uea_keys", {"pred", "ref"}}}}}}});
  }
  std::printf("%-6s %12s %16s\n", "agg", "one (s)", "bootstrap (s)");
  for (const char* name : {"wer", "bleu"}) {
    aeval::registry::Registry registry;
    registry.add(Kind::aggregator, *aeval::uea::translate(uea, uea.get("agg", name)).entry);
    registry.add(Kind::evaluator, *aeval::uea::translate(uea, uea.get("evaluator", "em")).entry);
    std::vector<std::unique_ptr<aeval::pipeline::Evaluator>> evaluators;
    evaluators.push_back(aeval::pipeline::load_evaluator(registry, "em"));
    // Aggregation takes the records as a run hands them over (UEA's aggregations read them whole).
    const auto aggregated = [&] {
      const aeval::pipeline::Aggregator aggregator = aeval::pipeline::load_aggregator(registry, name);
      aeval::pipeline::AggregationSamples samples(evaluators, {&aggregator});
      for (const auto& r : records) samples.add(r);
      aggregator.aggregate(evaluators, samples);
    };
    const double one = seconds_of(aggregated);
    aeval::registry::apply_assignment(registry, std::string(name) + ".bootstrap=1000");
    const double all = seconds_of(aggregated);
    std::printf("%-6s %12.3f %16.3f\n", name, one, all);
  }
  return 0;
}
