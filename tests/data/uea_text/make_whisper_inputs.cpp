// Input maker for make_uea_text_golden.py (not built by CMake): aeval's
// EnglishTextNormalizer, the conformance-tested port of whisper c0d2f62, with
// an empty spelling table, on each line of stdin; prints a JSON array of
// {"input", "output"}. UltraEval-Audio's compute_wer applies Whisper's English
// normalizer to every language before its language-specific steps, so these
// outputs are the texts TextNorm, zhconv and MeCab really receive there.
// Build: see README.md.
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "aeval/text/whisper_normalizers.hpp"

int main() {
  const aeval::text::EnglishTextNormalizer english{aeval::text::SpellingTable{}};
  nlohmann::json out = nlohmann::json::array();
  std::string line;
  while (std::getline(std::cin, line)) out.push_back({{"input", line}, {"output", english(line)}});
  std::cout << out.dump() << "\n";
}
