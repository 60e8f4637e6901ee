#define PCRE2_CODE_UNIT_WIDTH 8
#include "aeval/text/regex.hpp"

#include <pcre2.h>

#include "aeval/error.hpp"

namespace aeval::text {

namespace {

// Python's str.isspace() set, which PCRE2's \s (Unicode White_Space) misses
// in part (\x1c-\x1f): the members, to sit inside a character class.
constexpr std::string_view kPythonSpaceMembers =
    "\\t\\n\\x0b\\f\\r\\x1c-\\x1f \\x85\\xa0\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}"
    "\\x{202f}\\x{205f}\\x{3000}";

// \s becomes that set, alone or inside a class ([^\s]); \S outside a class its
// complement; \uXXXX and \UXXXXXXXX the code point.
std::string translate(std::string_view pattern) {
  const std::string members(kPythonSpaceMembers);
  std::string out;
  bool in_class = false;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      const char next = pattern[i + 1];
      const std::size_t hex = next == 'u' ? 4 : next == 'U' ? 8 : 0;  // Python's \uXXXX, \UXXXXXXXX
      if (next == 's') {
        out += in_class ? members : "[" + members + "]";
      } else if (next == 'S' && !in_class) {
        out += "[^" + members + "]";
      } else if (hex && i + 1 + hex < pattern.size() &&
                 pattern.substr(i + 2, hex).find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos) {
        out += "\\x{" + std::string(pattern.substr(i + 2, hex)) + "}";
        i += hex;
      } else {
        out += pattern.substr(i, 2);
      }
      ++i;
      continue;
    }
    out += c;
    if (!in_class && c == '[') {
      in_class = true;
      // A ']' first in the class ([]...] or [^]...]) is a member, not its end.
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') out += pattern[++i];
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') out += pattern[++i];
    } else if (in_class && c == ']') {
      in_class = false;
    }
  }
  return out;
}

std::size_t next_code_point(std::string_view s, std::size_t at) {
  ++at;
  while (at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) ++at;
  return at;
}

}  // namespace

constexpr uint32_t kMaxGroups = 64;

struct Regex::Impl {
  pcre2_code* code = nullptr;
  std::string pattern;
  ~Impl() { pcre2_code_free(code); }

  // Finds the next match at or after `start`; fills `m`. Match data is per
  // thread (so one Regex can be shared by threads) and reused across calls:
  // normalizers run thousands of searches per text.
  bool find(std::string_view s, std::size_t start, uint32_t options, Match& m) const {
    struct MatchData {
      pcre2_match_data* data = pcre2_match_data_create(kMaxGroups, nullptr);
      ~MatchData() { pcre2_match_data_free(data); }
    };
    thread_local const MatchData scratch;
    const int rc = pcre2_match(code, reinterpret_cast<PCRE2_SPTR>(s.data()), s.size(), start, options,
                               scratch.data, nullptr);
    if (rc == PCRE2_ERROR_NOMATCH) return false;
    if (rc <= 0)  // 0: more groups than kMaxGroups, which no pattern of aeval has
      throw Error(ErrorCategory::internal, "regex '" + pattern + "' failed with PCRE2 code " + std::to_string(rc));
    // rc pairs are set; later groups did not take part in the match.
    const PCRE2_SIZE* ov = pcre2_get_ovector_pointer(scratch.data);
    m.subject_ = s;
    m.ovector_.assign(ov, ov + 2 * static_cast<std::size_t>(rc));
    return true;
  }
};

std::string Regex::Match::group(int index) const {
  if (!matched(index)) return {};
  const std::size_t begin = ovector_[2 * index], end = ovector_[2 * index + 1];
  return std::string(subject_.substr(begin, end - begin));
}

bool Regex::Match::matched(int index) const {
  return index >= 0 && std::size_t(2 * index + 1) < ovector_.size() &&
         ovector_[2 * index] != PCRE2_UNSET;
}

Regex::Regex(std::string_view pattern) : impl_(std::make_unique<Impl>()) {
  impl_->pattern = std::string(pattern);
  const std::string translated = translate(pattern);
  int error = 0;
  PCRE2_SIZE offset = 0;
  impl_->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(translated.data()), translated.size(),
                              PCRE2_UTF | PCRE2_UCP | PCRE2_NO_UTF_CHECK, &error, &offset, nullptr);
  if (!impl_->code) {
    PCRE2_UCHAR message[256];
    pcre2_get_error_message(error, message, sizeof message);
    throw Error(ErrorCategory::internal, "bad regex '" + impl_->pattern + "': " +
                                             reinterpret_cast<const char*>(message));
  }
  pcre2_jit_compile(impl_->code, PCRE2_JIT_COMPLETE);
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

std::string Regex::sub(std::string_view s, const std::function<std::string(const Match&)>& replace) const {
  std::string out;
  std::size_t pos = 0;       // where the next search starts
  std::size_t copied = 0;    // subject bytes already copied to out
  uint32_t options = 0;
  Match m;
  while (pos <= s.size() && impl_->find(s, pos, options, m)) {
    // PCRE2 validates the UTF-8 from the start offset to the end of the
    // subject on every call: quadratic over a long text. The first call has
    // checked it all, and every later start is a code point boundary.
    options = PCRE2_NO_UTF_CHECK;
    const std::size_t begin = m.ovector_[0], end = m.ovector_[1];
    out.append(s.substr(copied, begin - copied));
    out += replace(m);
    copied = end;
    if (end == begin) {
      // An empty match: copy one code point and move on, as Python does.
      if (end >= s.size()) break;
      const std::size_t next = next_code_point(s, end);
      out.append(s.substr(end, next - end));
      copied = pos = next;
    } else {
      pos = end;
    }
  }
  if (copied < s.size()) out.append(s.substr(copied));
  return out;
}

std::string Regex::sub(std::string_view s, std::string_view replacement) const {
  return sub(s, [&](const Match& m) {
    std::string out;
    for (std::size_t i = 0; i < replacement.size(); ++i) {
      const char c = replacement[i];
      if (c != '\\' || i + 1 >= replacement.size()) {
        out += c;
        continue;
      }
      const char d = replacement[i + 1];
      if (d >= '0' && d <= '9') {
        int group = d - '0';
        ++i;
        if (i + 1 < replacement.size() && replacement[i + 1] >= '0' && replacement[i + 1] <= '9')
          group = group * 10 + (replacement[++i] - '0');
        out += m.group(group);
      } else if (d == 'g' && i + 2 < replacement.size() && replacement[i + 2] == '<') {
        const std::size_t close = replacement.find('>', i + 3);
        out += m.group(std::stoi(std::string(replacement.substr(i + 3, close - i - 3))));
        i = close;
      } else {
        out += d == 'n' ? '\n' : d == 't' ? '\t' : d;
        ++i;
      }
    }
    return out;
  });
}

bool Regex::match(std::string_view s) const {
  Match m;
  return impl_->find(s, 0, PCRE2_ANCHORED, m);
}

bool Regex::search(std::string_view s) const {
  Match m;
  return impl_->find(s, 0, 0, m);
}

std::optional<Regex::Match> Regex::find(std::string_view s) const {
  Match m;
  if (!impl_->find(s, 0, 0, m)) return std::nullopt;
  return m;
}

std::vector<std::string> Regex::split(std::string_view s) const {
  std::vector<std::string> out;
  std::size_t pos = 0, last = 0;
  uint32_t options = 0;
  Match m;
  while (pos <= s.size() && impl_->find(s, pos, options, m)) {
    options = PCRE2_NO_UTF_CHECK;  // checked by the first call, as in sub()
    const std::size_t begin = m.ovector_[0], end = m.ovector_[1];
    if (end == begin) {
      if (end >= s.size()) break;
      if (begin == last && begin == 0) {  // Python: an empty match at 0 does not split
        pos = next_code_point(s, end);
        continue;
      }
    }
    out.emplace_back(s.substr(last, begin - last));
    last = end;
    pos = end == begin ? next_code_point(s, end) : end;
  }
  out.emplace_back(s.substr(last));
  return out;
}

}  // namespace aeval::text
