#pragma once
// Seed-TTS-Eval's text side of ASR-WER (its run_wer.py process_one, which UltraEval-Audio's
// SeedTTSEvalASRWER runs): the two texts it hands to jiwer, and jiwer's WER of one pair.
#include <string>

#include "post_process/post_process.hpp"

namespace aeval::pipeline {

// Whether `lang` is scored by characters (CER): zh, ja, yue, th, ko.
bool seed_tts_counts_characters(const std::string& lang);

struct SeedTtsTexts {
  std::string truth, hypo;
};
// process_one's texts: every character of `punctuation` (the registry's seed-tts-punctuation:
// zhon.hanzi.punctuation and string.punctuation but the apostrophe) removed, each pair of spaces made
// one (once, left to right: str.replace), then for a character
// language every non-space character on its own, else lowercased (Python's str.lower).
// `keep_whitespace`: every character on its own, whitespace too, as the copy of process_one in
// UltraEval-Audio's wer.py does. jiwer's transform makes each whitespace run one space, so the words
// are the same; a reference of whitespace alone fails with another of jiwer's errors.
SeedTtsTexts seed_tts_texts(const std::string& hypo, const std::string& truth, const std::string& lang,
                            const PostProcess& punctuation, bool keep_whitespace = false);

// jiwer's compute_measures(truth, hypo)["wer"] of one pair. Throws aeval::Error (data) where jiwer
// raises, with jiwer 2.6.0's message (UltraEval-Audio's pin): an empty reference, or one with no word.
double jiwer_pair_wer(const std::string& truth, const std::string& hypo);

}  // namespace aeval::pipeline
