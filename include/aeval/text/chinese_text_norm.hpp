#pragma once
// Chinese text normalization of SpeechColab's cn_tn.py (TextNorm, as vendored by
// UltraEval-Audio in audio_evals/lib/text_normalization/cn_tn.py) in the one
// configuration UltraEval-Audio's compute_wer uses: every option off
// (no full-width folding, no case change, no filler or erhua removal, no
// character check, spaces kept, no OpenCC). Output for output identical to
// the Python code, quirks included (tests/data/uea_text/cn_tn.jsonl).
#include <string>
#include <string_view>

namespace aeval::text {

// TextNorm(...)(text): normalize_nsw, then every character of cn_tn's PUNCS
// (its Chinese punctuation list plus string.punctuation) becomes a space.
// Spaces are neither collapsed nor stripped. Thread-safe.
std::string chinese_text_normalize(std::string_view text);

// normalize_nsw(text): dates, money, mobile and fixed-line phone numbers,
// fractions, percentages, numbers before a measure word, 4-32 digit strings
// and remaining numbers written out in Chinese characters, in that order;
// "P二P" style words restored to "P2P".
std::string chinese_normalize_nsw(std::string_view text);

// num2chn(number): "digits[.digits]" as a Chinese cardinal
// ("1200" → "一千两百", "10.5" → "十点五"). Any Unicode decimal digit counts
// as a digit, as for Python's int(). Throws aeval::Error (data) where
// num2chn raises ValueError (a non-digit, more than one '.').
std::string chinese_cardinal(std::string_view number);

// num2chn(number, alt_two=False, use_units=False): digit by digit
// ("2024" → "二零二四").
std::string chinese_digits(std::string_view number);

}  // namespace aeval::text
