#pragma once
// sacreBLEU's "ja-mecab" tokenizer (sacrebleu/tokenizers/tokenizer_ja_mecab.py,
// the same in 1.5.1, which UltraEval-Audio pins, and 2.x): MeCab with the IPA
// dictionary and -Owakati, the line stripped before and the result after
// (Python str.strip()). UltraEval-Audio's compute_wer uses it for Japanese.
#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace aeval::text {

// Entries of IPAdic 2.7.0-20070801 as released; sacreBLEU refuses any other
// size. Debian's mecab-ipadic adds one entry (令和, 2019), so its compiled
// dictionary has 392127 and splits 令和 differently (令 和 upstream); the
// exact one is built from Debian's sources by
// scripts/build_sacrebleu_ipadic.sh.
inline constexpr std::size_t kSacrebleuIpadicEntries = 392126;

struct JapaneseTokenizerOptions {
  // A compiled UTF-8 IPAdic folder (sys.dic, matrix.bin, char.bin, unk.dic, dicrc).
  std::filesystem::path dictionary = "/var/lib/mecab/dic/ipadic-utf8";
};

class JapaneseTokenizer {
 public:
  // Loads the dictionary once; throws aeval::Error (config) when MeCab cannot.
  // No resource file is read (-r /dev/null), so no user dictionary can sneak in.
  explicit JapaneseTokenizer(JapaneseTokenizerOptions options = {});
  ~JapaneseTokenizer();
  JapaneseTokenizer(JapaneseTokenizer&&) noexcept;
  JapaneseTokenizer& operator=(JapaneseTokenizer&&) noexcept;

  // TokenizerJaMecab()(line). Thread-safe: the MeCab model and tagger are
  // shared, and every call parses in a lattice of its own.
  std::string operator()(std::string_view line) const;

  const std::filesystem::path& dictionary() const;
  std::size_t dictionary_entries() const;
  // True for the dictionary sacreBLEU accepts (kSacrebleuIpadicEntries entries).
  bool is_sacrebleu_dictionary() const { return dictionary_entries() == kSacrebleuIpadicEntries; }
  // sacreBLEU's signature(): "ja-mecab-" + MeCab version + "-IPA".
  std::string signature() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The tokenizer sacreBLEU's ja-mecab stands for, loaded once: the released
// IPAdic when it has been built into cache_dir()/mecab/ipadic-sacrebleu
// (scripts/build_sacrebleu_ipadic.sh), else Debian's (which differs from it on
// 令和 alone). `is_sacrebleu_dictionary()` says which, for provenance.
const JapaneseTokenizer& sacrebleu_japanese_tokenizer();
std::filesystem::path sacrebleu_ipadic_dir();

}  // namespace aeval::text
