#pragma once
// UltraEval-Audio's compute_wer (audio_evals/lib/wer.py at 9b69da6), which its WER and CER
// evaluators and its PracticeWER aggregation share: per pair, Whisper's English normalizer
// (with UEA's own spelling table) on both texts, for "yue" traditional to simplified
// characters, for "zh" and "yue" cn_tn; then a sacreBLEU tokenizer ("zh" for yue, "ja-mecab"
// for jp, the language itself when sacreBLEU has a tokenizer of that name, else 13a),
// lowercased, split on whitespace; word edits summed over reference tokens summed.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace aeval::pipeline {

class UeaWer {
 public:
  // `spelling_table`: UEA's audio_evals/lib/text_normalization/english.json.
  explicit UeaWer(const std::filesystem::path& spelling_table);
  ~UeaWer();
  // compute_wer(refs, hyps, language): a fraction. Throws aeval::Error (data) where Python
  // raises ZeroDivisionError (no reference token at all).
  double operator()(const std::vector<std::string>& refs, const std::vector<std::string>& hyps,
                    const std::string& language) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aeval::pipeline
