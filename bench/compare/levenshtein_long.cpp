// Times aeval's alignment (the one behind WER and CER) on the 128 pairs of
// tests/data/levenshtein_long, 40 to 120,000 tokens, and checks each against
// RapidFuzz's opcodes there. Prints the total and the slowest pairs; the
// script levenshtein_vs_rapidfuzz.sh times rapidfuzz-cpp on the same pairs.
// Usage: aeval_bench_levenshtein tests/data/levenshtein_long/levenshtein_long.jsonl
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "aeval/metrics/wer.hpp"
#include "support/levenshtein_cases.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: aeval_bench_levenshtein LEVENSHTEIN_LONG_JSONL\n");
    return 2;
  }
  std::ifstream in(argv[1]);
  std::string line;
  double total = 0;
  int pairs = 0, wrong = 0;
  std::vector<std::pair<double, std::string>> times;
  while (std::getline(in, line)) {
    const auto c = nlohmann::json::parse(line);
    const auto pair = aeval::testing::levenshtein_case(c["seed"], c["length"], c["vocab"], c["edits_per_mille"]);
    std::vector<aeval::metrics::AlignmentChunk> chunks;
    const auto start = std::chrono::steady_clock::now();
    aeval::metrics::align(pair.reference, pair.hypothesis, &chunks);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total += seconds;
    ++pairs;
    if (aeval::testing::opcodes_hash(chunks) != c["opcodes_fnv1a"]) ++wrong;
    times.emplace_back(seconds, "length " + c["length"].dump() + ", vocabulary " + c["vocab"].dump() + ", " +
                                    c["edits_per_mille"].dump() + " edits per mille");
  }
  std::sort(times.rbegin(), times.rend());
  std::printf("%d pairs in %.2f s, %d differ from RapidFuzz\n", pairs, total, wrong);
  for (std::size_t k = 0; k < std::min<std::size_t>(5, times.size()); ++k)
    std::printf("  %.2f s  %s\n", times[k].first, times[k].second.c_str());
  return wrong == 0 ? 0 : 1;
}
