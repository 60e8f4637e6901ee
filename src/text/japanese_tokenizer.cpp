// sacreBLEU 1.5.1 / 2.x TokenizerJaMecab (sacrebleu/tokenizers/tokenizer_ja_mecab.py)
// through libmecab 0.996 (Debian libmecab2) and IPAdic. Vectors:
// tests/data/uea_text/ja_mecab.jsonl.
//
// sacreBLEU calls MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati").parse(line.strip()).strip().
// Tagger::parse(const char*) sets the sentence into the tagger's own lattice,
// parses it and formats it with the model's writer; here each call does the
// same in a lattice of its own (Tagger::parse(Lattice*) is MeCab's thread-safe
// entry point), taken from a pool so that lattices are reused (about 20%
// faster than a new lattice per line).
#include "aeval/text/japanese_tokenizer.hpp"

#include <mecab.h>

#include <mutex>
#include <vector>

#include "aeval/error.hpp"
#include "aeval/text/unicode.hpp"
#include "util/sha256.hpp"
#include "aeval/text/utf8.hpp"

namespace aeval::text {

namespace {

struct ModelDeleter {
  void operator()(MeCab::Model* m) const { MeCab::deleteModel(m); }
};
struct TaggerDeleter {
  void operator()(MeCab::Tagger* t) const { MeCab::deleteTagger(t); }
};
struct LatticeDeleter {
  void operator()(MeCab::Lattice* l) const { MeCab::deleteLattice(l); }
};

std::string last_error() {
  const char* what = MeCab::getLastError();
  return what && *what ? what : "unknown MeCab error";
}

}  // namespace

struct JapaneseTokenizer::Impl {
  std::filesystem::path dictionary;
  std::unique_ptr<MeCab::Model, ModelDeleter> model;
  std::unique_ptr<MeCab::Tagger, TaggerDeleter> tagger;
  std::size_t entries = 0;

  using LatticePtr = std::unique_ptr<MeCab::Lattice, LatticeDeleter>;
  std::mutex mutex;
  std::vector<LatticePtr> idle;  // lattices no call is using

  LatticePtr acquire() {
    {
      const std::lock_guard lock(mutex);
      if (!idle.empty()) {
        LatticePtr lattice = std::move(idle.back());
        idle.pop_back();
        return lattice;
      }
    }
    LatticePtr lattice(model->createLattice());
    if (!lattice) throw Error(ErrorCategory::internal, "MeCab lattice: " + last_error());
    return lattice;
  }
  void release(LatticePtr lattice) {
    lattice->clear();
    const std::lock_guard lock(mutex);
    idle.push_back(std::move(lattice));
  }
};

JapaneseTokenizer::JapaneseTokenizer(JapaneseTokenizerOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->dictionary = std::move(options.dictionary);
  const std::string where = impl_->dictionary.string();
  if (!std::filesystem::is_regular_file(impl_->dictionary / "sys.dic"))
    throw Error(ErrorCategory::config, where + ": no compiled MeCab dictionary (sys.dic) here; "
                                                "install mecab-ipadic-utf8 or name an IPAdic folder");
  // argv form, so that a folder name with blanks stays one argument.
  std::vector<std::string> args = {"mecab", "-r", "/dev/null", "-d", where, "-Owakati"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  impl_->model.reset(MeCab::createModel(static_cast<int>(argv.size()), argv.data()));
  if (!impl_->model) throw Error(ErrorCategory::config, where + ": MeCab cannot load the dictionary: " + last_error());
  impl_->tagger.reset(impl_->model->createTagger());
  if (!impl_->tagger) throw Error(ErrorCategory::config, where + ": MeCab tagger: " + last_error());
  const MeCab::DictionaryInfo* info = impl_->model->dictionary_info();
  if (!info) throw Error(ErrorCategory::config, where + ": MeCab reports no dictionary");
  if (info->next) throw Error(ErrorCategory::config, where + ": a user dictionary is loaded; sacreBLEU allows none");
  if (std::string_view(info->charset) != "UTF-8" && std::string_view(info->charset) != "utf-8" &&
      std::string_view(info->charset) != "utf8")
    throw Error(ErrorCategory::config, where + ": dictionary charset is " + info->charset + ", not UTF-8");
  impl_->entries = info->size;
}

JapaneseTokenizer::~JapaneseTokenizer() = default;
JapaneseTokenizer::JapaneseTokenizer(JapaneseTokenizer&&) noexcept = default;
JapaneseTokenizer& JapaneseTokenizer::operator=(JapaneseTokenizer&&) noexcept = default;

std::string JapaneseTokenizer::operator()(std::string_view input) const {
  // Python strings hold no invalid UTF-8: such bytes become U+FFFD first.
  std::string line = strip(first_invalid_utf8(input) ? to_utf8(to_u32(input)) : std::string(input));
  // MeCab receives a C string from Python: it ends at the first NUL.
  if (const std::size_t nul = line.find('\0'); nul != std::string::npos) line.resize(nul);

  Impl::LatticePtr lattice = impl_->acquire();
  lattice->set_sentence(line.c_str(), line.size());
  if (!impl_->tagger->parse(lattice.get()))
    throw Error(ErrorCategory::internal, std::string("MeCab failed on a line: ") + lattice->what());
  const char* wakati = lattice->toString();
  if (!wakati) throw Error(ErrorCategory::internal, std::string("MeCab output: ") + lattice->what());
  std::string tokens = strip(wakati);
  impl_->release(std::move(lattice));
  return tokens;
}

const std::filesystem::path& JapaneseTokenizer::dictionary() const { return impl_->dictionary; }

std::size_t JapaneseTokenizer::dictionary_entries() const { return impl_->entries; }

std::string JapaneseTokenizer::signature() const { return std::string("ja-mecab-") + MeCab::Model::version() + "-IPA"; }

std::filesystem::path sacrebleu_ipadic_dir() { return cache_dir() / "mecab" / "ipadic-sacrebleu"; }

const JapaneseTokenizer& sacrebleu_japanese_tokenizer() {
  static const JapaneseTokenizer tokenizer = [] {
    JapaneseTokenizerOptions options;
    if (std::filesystem::exists(sacrebleu_ipadic_dir() / "sys.dic")) options.dictionary = sacrebleu_ipadic_dir();
    return JapaneseTokenizer(options);
  }();
  return tokenizer;
}

}  // namespace aeval::text
