// Times whisper's EnglishTextNormalizer on one long text of 1k, 4k, 16k and
// 64k words and of about 1 MB: the inputs of shared/reference/
// whisper_normalizers.jsonl (AudioCaps, Clotho and MusicCaps captions, speech
// transcripts, numbers, contractions, non-ASCII text) in a fixed shuffled
// order, so that every size has the same mix, joined by spaces and repeated.
// The spelling table is the one `aeval fetch whisper-spelling` installs, when
// present. Prints one line per size: words, bytes, seconds (the thread's CPU
// time, best of 10 runs, 3 from 64k words on: on a shared machine wall-clock
// runs get preempted) and an FNV-1a hash of the output, so that two builds
// can be checked to agree.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "aeval/text/unicode.hpp"
#include "aeval/text/whisper_normalizers.hpp"

namespace {

// The first `words` whitespace-separated words of the inputs, repeated;
// words == 0 means as many as fit in `bytes`.
std::string long_text(const std::vector<std::string>& inputs, std::size_t words, std::size_t bytes) {
  std::string out;
  std::size_t count = 0;
  for (std::size_t i = 0;; i = (i + 1) % inputs.size()) {
    for (const auto& word : aeval::text::split_whitespace(inputs[i])) {
      if (words ? count == words : out.size() + word.size() + 1 > bytes) return out;
      if (!out.empty()) out += ' ';
      out += word;
      ++count;
    }
  }
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: aeval_bench_whisper_normalizer shared/reference/whisper_normalizers.jsonl\n");
    return 2;
  }
  std::vector<std::string> inputs;
  std::ifstream in(argv[1]);
  for (std::string line; std::getline(in, line);) {
    auto input = nlohmann::json::parse(line)["input"].get<std::string>();
    if (!aeval::text::split_whitespace(input).empty()) inputs.push_back(std::move(input));
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "no inputs in %s\n", argv[1]);
    return 1;
  }
  // The file groups its inputs by source; minstd_rand is the same everywhere.
  std::minstd_rand rng(1);
  for (std::size_t i = inputs.size() - 1; i > 0; --i) std::swap(inputs[i], inputs[rng() % (i + 1)]);
  const aeval::text::EnglishTextNormalizer normalizer(aeval::text::load_spelling_table());
  std::printf("spelling table: %zu entries\n%8s %9s %10s  %s\n", normalizer.spelling().mapping.size(), "words",
              "bytes", "seconds", "output hash");
  const std::pair<std::size_t, std::size_t> sizes[] = {{1000, 0}, {4000, 0}, {16000, 0}, {64000, 0}, {0, 1 << 20}};
  for (const auto& [words, bytes] : sizes) {
    const std::string text = long_text(inputs, words, bytes);
    double best = 1e300;
    std::string out;
    for (int r = 0, runs = text.size() < (256u << 10) ? 10 : 3; r < runs; ++r) {
      const double start = cpu_seconds();
      out = normalizer(text);
      best = std::min(best, cpu_seconds() - start);
    }
    std::printf("%8zu %9zu %10.4f  %016llx\n", aeval::text::split_whitespace(text).size(), text.size(), best,
                static_cast<unsigned long long>(fnv1a(out)));
    std::fflush(stdout);
  }
  return 0;
}
