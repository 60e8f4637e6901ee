#include "datasets/hub_data_files.hpp"

#include <algorithm>
#include <map>
#include <regex>

namespace aeval::datasets {

namespace {

std::regex glob_regex(const std::string& pattern) {
  std::string re;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (pattern.compare(i, 3, "**/") == 0 && (i == 0 || pattern[i - 1] == '/')) {
      re += "(?:.*/)?";  // any number of folders, none too
      i += 2;
    } else if (pattern.compare(i, 2, "**") == 0) {
      re += ".*";
      i += 1;
    } else if (c == '*') {
      re += "[^/]*";
    } else if (c == '?') {
      re += "[^/]";
    } else if (c == '[') {
      const auto close = pattern.find(']', i + 2);
      if (close == std::string::npos) {
        re += "\\[";
        continue;
      }
      std::string cls = pattern.substr(i + 1, close - i - 1);
      if (cls.front() == '!') cls.front() = '^';
      re += '[';
      for (const char k : cls) {
        if (k == '\\' || k == '[' || k == ']') re += '\\';
        re += k;
      }
      re += ']';
      i = close;
    } else {
      if (std::string("\\^$.|+(){}").find(c) != std::string::npos) re += '\\';
      re += c;
    }
  }
  return std::regex(re);
}

// A file or folder `datasets` leaves out unless a pattern names it.
bool hidden(const std::string& path) {
  std::size_t at = 0;
  for (;;) {
    if (path.compare(at, 1, ".") == 0 || path.compare(at, 2, "__") == 0) return true;
    const auto slash = path.find('/', at);
    if (slash == std::string::npos) return false;
    at = slash + 1;
  }
}

const std::vector<std::pair<std::string, std::vector<std::string>>> kKeywords = {
    {"train", {"train", "training"}},
    {"validation", {"validation", "valid", "dev", "val"}},
    {"test", {"test", "testing", "eval", "evaluation"}},
};

// datasets' base patterns with a keyword, `sep` being its separators.
std::vector<std::string> keyword_patterns(const std::vector<std::string>& keywords, bool in_folder) {
  const std::string sep = "[-._ 0-9]";
  std::vector<std::string> out;
  for (const auto& k : keywords) {
    if (in_folder) {
      for (const auto& p : {"**/" + k + "/**", "**/" + k + sep + "*/**", "**/*" + sep + k + "/**",
                            "**/*" + sep + k + sep + "*/**"})
        out.push_back(p);
    } else {
      for (const auto& p : {"**/" + k + sep + "*", "**/*" + sep + k + sep + "*"}) out.push_back(p);
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> hub_glob(const std::vector<std::string>& patterns, const std::vector<std::string>& paths) {
  std::vector<std::pair<std::regex, bool>> compiled;  // with whether the pattern names hidden parts
  for (const auto& p : patterns) compiled.emplace_back(glob_regex(p), hidden(p));
  std::vector<std::string> out;
  for (const auto& path : paths) {
    const bool hidden_path = hidden(path);
    if (std::any_of(compiled.begin(), compiled.end(), [&](const auto& c) {
          return (!hidden_path || c.second) && std::regex_match(path, c.first);
        }))
      out.push_back(path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::pair<std::string, std::vector<std::string>>> inferred_splits(const std::vector<std::string>& paths) {
  std::vector<std::pair<std::string, std::vector<std::string>>> splits;
  // data/SPLIT-NNNNN-of-NNNNN*: the split is the name before the shard numbers.
  const std::string shards = "-[0-9][0-9][0-9][0-9][0-9]-of-[0-9][0-9][0-9][0-9][0-9]*.*";
  const std::regex split_name(R"(^(.+)-[0-9]{5}-of-[0-9]{5})"), valid(R"(^\w+(\.\w+)*$)");
  std::map<std::string, bool> names;
  for (const auto& path : hub_glob({"data/*" + shards}, paths)) {
    std::smatch m;
    const std::string base = path.substr(path.rfind('/') + 1);
    if (std::regex_search(base, m, split_name) && std::regex_match(m[1].str(), valid)) names[m[1].str()] = true;
  }
  if (!names.empty()) {
    for (const auto& [name, keyword] : kKeywords)
      if (names.erase(name)) splits.emplace_back(name, hub_glob({"data/" + name + shards}, paths));
    for (const auto& [name, unused] : names) splits.emplace_back(name, hub_glob({"data/" + name + shards}, paths));
    return splits;
  }
  for (const bool in_folder : {true, false}) {
    for (const auto& [name, keywords] : kKeywords) {
      auto files = hub_glob(keyword_patterns(keywords, in_folder), paths);
      if (!files.empty()) splits.emplace_back(name, std::move(files));
    }
    if (!splits.empty()) return splits;
  }
  auto all = hub_glob({"**"}, paths);
  if (!all.empty()) splits.emplace_back("train", std::move(all));
  return splits;
}

}  // namespace aeval::datasets
