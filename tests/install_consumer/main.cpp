// Scores one hypothesis with the installed metric library alone.
#include <cstdio>

#include "aeval/metrics/wer.hpp"
#include "aeval/text/whisper_normalizers.hpp"

int main() {
  const std::string reference = aeval::text::whisper_basic_normalize("The cat sat.");
  const std::string hypothesis = aeval::text::whisper_basic_normalize("the cat sit");
  const auto counts = aeval::metrics::align(aeval::metrics::jiwer_words(reference), aeval::metrics::jiwer_words(hypothesis));
  std::printf("wer %.6f\n", aeval::metrics::error_rates(counts).wer);
  return 0;
}
