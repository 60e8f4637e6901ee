#pragma once
// Python `re` semantics on UTF-8 strings, on top of PCRE2 (UTF + UCP):
// \w \d \b are Unicode-aware as in Python 3, \s (also inside a class) and \S
// are rewritten to the exact set of str.isspace(), and \uXXXX / \UXXXXXXXX
// name code points. Used by every normalizer and tokenizer that must
// reproduce a Python reference.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aeval::text {

class Regex {
 public:
  class Match {
   public:
    // Group text ("" for a group that did not take part, as Python's \N gives).
    std::string group(int index) const;
    bool matched(int index) const;

   private:
    friend class Regex;
    std::string_view subject_;
    std::vector<std::size_t> ovector_;
  };

  explicit Regex(std::string_view pattern);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  // re.sub(pattern, template, s): template understands \1..\99 and \g<N>.
  std::string sub(std::string_view s, std::string_view replacement) const;
  // re.sub(pattern, function, s)
  std::string sub(std::string_view s, const std::function<std::string(const Match&)>& replace) const;
  // re.match(...) anchored at the start; re.search otherwise.
  bool match(std::string_view s) const;
  bool search(std::string_view s) const;
  // re.search(...) with its groups; the Match views `s`, which must outlive it.
  std::optional<Match> find(std::string_view s) const;
  // re.split(pattern, s) for patterns without groups.
  std::vector<std::string> split(std::string_view s) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aeval::text
