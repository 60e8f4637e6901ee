#pragma once
// Princeton WordNet 3.0 read straight from its database files (Debian's
// wordnet-base puts them in /usr/share/wordnet), answering what NLTK 3.8's
// WordNetCorpusReader answers for METEOR: synsets(word) with nltk <= 3.8's
// recursive morphy, and the lemma names of each synset.
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace aeval::text {

class WordNet {
 public:
  // Loads the index and exception files of `dir`. Throws aeval::Error (data)
  // naming the missing file and the Debian package that provides it.
  explicit WordNet(const std::filesystem::path& dir = "/usr/share/wordnet");
  ~WordNet();
  WordNet(const WordNet&) = delete;
  WordNet& operator=(const WordNet&) = delete;

  // nltk _morphy(form, pos) for pos in "n", "v", "a", "r".
  std::vector<std::string> morphy(const std::string& form, char pos) const;
  // Lemma names (case kept, syntactic markers such as "(a)" removed) of every
  // synset of `word` over nouns, verbs, adjectives and adverbs, in NLTK's
  // order. Computed once per word; the reference stays valid for the
  // reader's lifetime.
  const std::vector<std::string>& synonym_lemma_names(const std::string& word) const;

  const std::filesystem::path& dir() const { return dir_; }

 private:
  struct Impl;
  std::filesystem::path dir_;
  std::unique_ptr<Impl> impl_;
};

// The process-wide reader of $AEVAL_WORDNET_DIR or /usr/share/wordnet, loaded once.
const WordNet& default_wordnet();

}  // namespace aeval::text
