#pragma once
// Numbers spelled out in English words as num2words 0.5.10 (Debian 12's
// python3-num2words) writes cardinals: the number step of MGM-Omni's
// Long-TTS-Eval normalizer, which UltraEval-Audio runs for Long-TTS-Eval.
#include <optional>
#include <string>
#include <string_view>

namespace aeval::text {

// num2words(int(digits), lang='en'): "1001" -> "one thousand and one",
// "1100" -> "one thousand, one hundred". `digits` are ASCII, leading zeros
// allowed. Nothing at or above 10^306, where num2words raises OverflowError.
std::optional<std::string> english_cardinal(std::string_view digits);

// re.sub(r'\d+', lambda m: f" {num2words(int(m.group(0)))} ", text): every run
// of Unicode decimal digits (Python's \d, any script) becomes its cardinal with
// a space either side. When one run cannot be spelled, the whole text comes back
// unchanged, as the reference's try/except around the substitution does.
std::string spell_out_numbers(std::string_view text);

}  // namespace aeval::text
