// WordNet 3.0 database files (index.*, data.*, *.exc, see wndb(5WN)) read the
// way NLTK 3.8's corpus/reader/wordnet.py reads them.
#include "aeval/text/wordnet.hpp"

#include <array>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "aeval/error.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::text {

namespace {

constexpr std::array<char, 4> kPos{'n', 'v', 'a', 'r'};
constexpr std::array<const char*, 4> kFileNames{"noun", "verb", "adj", "adv"};

std::size_t pos_index(char pos) {
  switch (pos) {
    case 'n': return 0;
    case 'v': return 1;
    case 'a':
    case 's': return 2;
    case 'r': return 3;
  }
  throw Error(ErrorCategory::internal, std::string("unknown WordNet part of speech '") + pos + "'");
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(ErrorCategory::data, "WordNet file " + path.string() +
                                         " is missing (install Debian's wordnet-base, or set AEVAL_WORDNET_DIR)");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// The MORPHOLOGICAL_SUBSTITUTIONS of NLTK's reader, in its order.
const std::vector<std::pair<std::string, std::string>>& substitutions(std::size_t pos) {
  static const std::array<std::vector<std::pair<std::string, std::string>>, 4> table{{
      {{"s", ""}, {"ses", "s"}, {"ves", "f"}, {"xes", "x"}, {"zes", "z"}, {"ches", "ch"}, {"shes", "sh"},
       {"men", "man"}, {"ies", "y"}},
      {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"}, {"ed", ""}, {"ing", "e"}, {"ing", ""}},
      {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
      {},
  }};
  return table[pos];
}

}  // namespace

struct WordNet::Impl {
  // lemma → offsets per part of speech
  std::unordered_map<std::string, std::array<std::vector<uint32_t>, 4>> index;
  std::array<std::unordered_map<std::string, std::vector<std::string>>, 4> exceptions;
  std::array<std::string, 4> data;  // whole data.* files, read by byte offset
  mutable std::mutex cache_mutex;
  mutable std::unordered_map<uint64_t, std::vector<std::string>> lemma_cache;
  mutable std::unordered_map<std::string, std::vector<std::string>> synonym_cache;

  bool has(const std::string& form, std::size_t pos) const {
    auto it = index.find(form);
    return it != index.end() && !it->second[pos].empty();
  }

  std::vector<std::string> lemma_names(std::size_t pos, uint32_t offset) const {
    const uint64_t key = (uint64_t(pos) << 32) | offset;
    {
      std::lock_guard lock(cache_mutex);
      if (auto it = lemma_cache.find(key); it != lemma_cache.end()) return it->second;
    }
    const std::string& file = data[pos];
    if (offset >= file.size()) throw Error(ErrorCategory::data, "WordNet: offset past the end of a data file");
    const std::size_t end = file.find('\n', offset);
    const auto f = fields(std::string_view(file).substr(offset, end - offset));
    // offset lex_filenum ss_type w_cnt(hex) [word lex_id]...
    if (f.size() < 4) throw Error(ErrorCategory::data, "WordNet: malformed data line at offset " + std::to_string(offset));
    const auto count = std::stoul(std::string(f[3]), nullptr, 16);
    std::vector<std::string> names;
    for (std::size_t w = 0; w < count && 4 + 2 * w < f.size(); ++w) {
      std::string name(f[4 + 2 * w]);
      // adjectives carry a syntactic marker: "able(a)", "galore(ip)"
      if (const auto paren = name.find('('); paren != std::string::npos && name.back() == ')') name.resize(paren);
      names.push_back(std::move(name));
    }
    std::lock_guard lock(cache_mutex);
    lemma_cache.emplace(key, names);
    return names;
  }
};

WordNet::WordNet(const std::filesystem::path& dir) : dir_(dir), impl_(std::make_unique<Impl>()) {
  for (std::size_t p = 0; p < 4; ++p) {
    const std::string index_text = read_file(dir / (std::string("index.") + kFileNames[p]));
    std::size_t start = 0;
    while (start < index_text.size()) {
      std::size_t end = index_text.find('\n', start);
      if (end == std::string::npos) end = index_text.size();
      const std::string_view line = std::string_view(index_text).substr(start, end - start);
      start = end + 1;
      if (line.empty() || line[0] == ' ') continue;  // licence header
      // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt offsets...
      const auto f = fields(line);
      if (f.size() < 4) continue;
      const std::size_t synsets = std::stoul(std::string(f[2]));
      const std::size_t pointers = std::stoul(std::string(f[3]));
      const std::size_t first_offset = 4 + pointers + 2;
      auto& offsets = impl_->index[std::string(f[0])][p];
      for (std::size_t k = 0; k < synsets && first_offset + k < f.size(); ++k)
        offsets.push_back(uint32_t(std::stoul(std::string(f[first_offset + k]))));
    }
    const std::string exc = read_file(dir / (std::string(kFileNames[p]) + ".exc"));
    std::istringstream lines(exc);
    std::string line;
    while (std::getline(lines, line)) {
      const auto f = fields(line);
      if (f.size() < 2) continue;
      auto& bases = impl_->exceptions[p][std::string(f[0])];
      for (std::size_t k = 1; k < f.size(); ++k) bases.emplace_back(f[k]);
    }
    impl_->data[p] = read_file(dir / (std::string("data.") + kFileNames[p]));
  }
}

WordNet::~WordNet() = default;

std::vector<std::string> WordNet::morphy(const std::string& form, char pos_char) const {
  const std::size_t pos = pos_index(pos_char);
  auto keep_known = [&](const std::vector<std::string>& forms) {
    std::vector<std::string> out;
    std::unordered_set<std::string> seen;
    for (const auto& f : forms)
      if (impl_->has(f, pos) && seen.insert(f).second) out.push_back(f);
    return out;
  };
  auto apply_rules = [&](const std::vector<std::string>& forms) {
    std::vector<std::string> out;
    for (const auto& f : forms)
      for (const auto& [old_suffix, new_suffix] : substitutions(pos))
        if (f.size() >= old_suffix.size() && f.compare(f.size() - old_suffix.size(), old_suffix.size(), old_suffix) == 0)
          out.push_back(f.substr(0, f.size() - old_suffix.size()) + new_suffix);
    return out;
  };
  if (auto it = impl_->exceptions[pos].find(form); it != impl_->exceptions[pos].end()) {
    std::vector<std::string> forms{form};
    forms.insert(forms.end(), it->second.begin(), it->second.end());
    return keep_known(forms);
  }
  std::vector<std::string> forms = apply_rules({form});
  std::vector<std::string> first{form};
  first.insert(first.end(), forms.begin(), forms.end());
  if (auto results = keep_known(first); !results.empty()) return results;
  // nltk <= 3.8 keeps applying the rules until something is found (removed in 3.9).
  while (!forms.empty()) {
    forms = apply_rules(forms);
    if (auto results = keep_known(forms); !results.empty()) return results;
  }
  return {};
}

const std::vector<std::string>& WordNet::synonym_lemma_names(const std::string& word) const {
  {
    std::lock_guard lock(impl_->cache_mutex);
    if (auto it = impl_->synonym_cache.find(word); it != impl_->synonym_cache.end()) return it->second;
  }
  const std::string lemma = lower(word);
  std::vector<std::string> names;
  for (char pos : kPos) {
    const std::size_t p = pos_index(pos);
    for (const auto& form : morphy(lemma, pos)) {
      auto it = impl_->index.find(form);
      if (it == impl_->index.end()) continue;
      for (uint32_t offset : it->second[p])
        for (auto& name : impl_->lemma_names(p, offset)) names.push_back(std::move(name));
    }
  }
  std::lock_guard lock(impl_->cache_mutex);
  return impl_->synonym_cache.emplace(word, std::move(names)).first->second;
}

const WordNet& default_wordnet() {
  static const WordNet wordnet([] {
    const char* dir = std::getenv("AEVAL_WORDNET_DIR");
    return std::filesystem::path(dir && *dir ? dir : "/usr/share/wordnet");
  }());
  return wordnet;
}

}  // namespace aeval::text
