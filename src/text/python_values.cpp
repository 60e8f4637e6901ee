// Python's str()/repr() of JSON-like values (CPython 3.11 Objects/unicodeobject.c
// unicode_repr, Python/pystrtod.c float_repr_style 'short'), json.loads and
// ast.literal_eval, for references that print or parse values (UltraEval-Audio's
// jinja2 prompts and answer extractors).
#include "aeval/text/python_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "aeval/error.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/utf8.hpp"
#include "util/untrusted_json.hpp"

namespace aeval::text {

namespace {

// str.isprintable() for one code point: not Other (Cc Cf Cs Co Cn) nor a
// separator other than the ASCII space (Zl Zp Zs).
bool printable(char32_t c) {
  if (c == U' ') return true;
  const char* category = general_category(c);
  return category[0] != 'C' && category[0] != 'Z';
}

std::string string_repr(const std::string& s) {
  const std::u32string text = to_u32(s);
  const bool single = text.find(U'\'') != std::u32string::npos;
  const bool double_ = text.find(U'"') != std::u32string::npos;
  const char32_t quote = single && !double_ ? U'"' : U'\'';
  std::string out(1, char(quote));
  for (const char32_t c : text) {
    if (c == quote || c == U'\\') out += '\\', out += char(c);
    else if (c == U'\t') out += "\\t";
    else if (c == U'\n') out += "\\n";
    else if (c == U'\r') out += "\\r";
    else if (c < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", unsigned(c));
    else if (c < 0x7f) out += char(c);
    else if (printable(c)) out += to_utf8(c);
    else if (c <= 0xff) out += fmt::format("\\x{:02x}", unsigned(c));
    else if (c <= 0xffff) out += fmt::format("\\u{:04x}", unsigned(c));
    else out += fmt::format("\\U{:08x}", unsigned(c));
  }
  return out + char(quote);
}

}  // namespace

std::string python_float_repr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  // The shortest digits that round-trip, then Python's layout: positional for
  // decimal exponents -4 <= e < 16 (with ".0" when integral), scientific otherwise.
  char buffer[64];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific).ptr;
  std::string scientific(buffer, end);
  const bool negative = scientific[0] == '-';
  if (negative) scientific.erase(0, 1);
  const std::size_t e = scientific.find('e');
  std::string digits = scientific.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int exponent = std::stoi(scientific.substr(e + 1));
  std::string out;
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out = "0." + std::string(std::size_t(-exponent - 1), '0') + digits;
    } else if (std::size_t(exponent + 1) >= digits.size()) {
      out = digits + std::string(std::size_t(exponent + 1) - digits.size(), '0') + ".0";
    } else {
      out = digits.substr(0, std::size_t(exponent + 1)) + "." + digits.substr(std::size_t(exponent + 1));
    }
  } else {
    out = fmt::format("{}{}{}e{}{:02d}", digits[0], digits.size() > 1 ? "." : "", std::string_view(digits).substr(1),
                      exponent < 0 ? '-' : '+', std::abs(exponent));
  }
  return negative ? "-" + out : out;
}

std::string python_repr(const OrderedJson& value) {
  switch (value.type()) {
    case OrderedJson::value_t::null: return "None";
    case OrderedJson::value_t::boolean: return value.get<bool>() ? "True" : "False";
    case OrderedJson::value_t::string: return string_repr(value.get<std::string>());
    case OrderedJson::value_t::number_integer: return std::to_string(value.get<long long>());
    case OrderedJson::value_t::number_unsigned: return std::to_string(value.get<unsigned long long>());
    case OrderedJson::value_t::number_float: return python_float_repr(value.get<double>());
    case OrderedJson::value_t::array: {
      std::string out = "[";
      for (std::size_t k = 0; k < value.size(); ++k) out += (k ? ", " : "") + python_repr(value[k]);
      return out + "]";
    }
    case OrderedJson::value_t::object: {
      std::string out = "{";
      bool first = true;
      for (const auto& [key, item] : value.items()) {
        out += (first ? "" : ", ") + string_repr(key) + ": " + python_repr(item);
        first = false;
      }
      return out + "}";
    }
    default: return value.dump();
  }
}

std::string python_str(const OrderedJson& value) {
  return value.is_string() ? value.get<std::string>() : python_repr(value);
}

const char* python_type_name(const OrderedJson& value) {
  switch (value.type()) {
    case OrderedJson::value_t::null: return "NoneType";
    case OrderedJson::value_t::boolean: return "bool";
    case OrderedJson::value_t::string: return "str";
    case OrderedJson::value_t::number_float: return "float";
    case OrderedJson::value_t::array: return "list";
    case OrderedJson::value_t::object: return "dict";
    default: return "int";  // signed and unsigned integers
  }
}

std::string python_format(std::string_view format, const OrderedJson& fields) {
  std::string out;
  for (std::size_t i = 0; i < format.size(); ++i) {
    const char c = format[i];
    if (c == '}') {
      if (i + 1 < format.size() && format[i + 1] == '}') {
        out += '}';
        ++i;
        continue;
      }
      throw Error(ErrorCategory::data, "ValueError: Single '}' encountered in format string");
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    const std::size_t close = format.find('}', i);
    if (close == std::string_view::npos) throw Error(ErrorCategory::data, "ValueError: Single '{' encountered in format string");
    const std::string name(format.substr(i + 1, close - i - 1));
    if (name.find_first_of(":![.") != std::string::npos)
      throw Error(ErrorCategory::data, "format field '{" + name + "}': only plain named fields are supported");
    if (!fields.is_object() || !fields.contains(name)) throw Error(ErrorCategory::data, "KeyError: '" + name + "'");
    out += python_str(fields[name]);
    i = close;
  }
  return out;
}

// ---- json.loads ---------------------------------------------------------------

namespace {

// Python's JSON decoder also reads NaN, Infinity and -Infinity. They become
// strings no text holds (a NUL and a marker) for nlohmann's strict parser, then floats.
constexpr std::string_view kNonFinite = "\\u0000aeval-non-finite:";

void restore_non_finite(OrderedJson& value) {
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    const std::string marker = std::string(1, '\0') + "aeval-non-finite:";
    if (s.rfind(marker, 0) == 0) {
      const std::string word = s.substr(marker.size());
      value = word == "NaN" ? std::nan("") : word == "Infinity" ? INFINITY : -INFINITY;
    }
  } else if (value.is_structured()) {
    for (auto& item : value) restore_non_finite(item);
  }
}

}  // namespace

std::optional<OrderedJson> python_json_loads(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) return std::nullopt;  // json.loads refuses a BOM, which nlohmann skips
  std::string marked;
  bool in_string = false, any = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      marked += c;
      if (c == '\\' && i + 1 < text.size()) marked += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    // A number too large for a double: Python reads it as infinity, nlohmann would refuse it.
    if ((c == '-' || std::isdigit(static_cast<unsigned char>(c))) && (i == 0 || !std::isalnum(static_cast<unsigned char>(text[i - 1])))) {
      std::size_t end = i + (c == '-');
      while (end < text.size() && std::strchr("0123456789.eE+-", text[end])) ++end;
      const std::string number(text.substr(i, end - i));
      char* parsed_end = nullptr;
      const double value = std::strtod(number.c_str(), &parsed_end);
      if (end > i + (c == '-') && parsed_end == number.c_str() + number.size() && std::isinf(value)) {
        marked += "\"" + std::string(kNonFinite) + (value < 0 ? "-Infinity" : "Infinity") + "\"";
        i = end - 1;
        any = true;
        continue;
      }
    }
    bool replaced = false;
    for (const std::string_view word : {"-Infinity", "Infinity", "NaN"})
      if (text.substr(i, word.size()) == word) {
        marked.append("\"").append(kNonFinite).append(word).append("\"");  // (GCC 12 misreads a + of temporaries here)
        i += word.size() - 1;
        replaced = any = true;
        break;
      }
    if (!replaced) marked += c;
  }
  OrderedJson value;
  try {
    value = parse_untrusted_json<OrderedJson>(any ? std::string_view(marked) : text, /*allow_exceptions=*/false);
  } catch (const JsonTooDeep&) {
    return std::nullopt;  // Python's RecursionError
  }
  if (value.is_discarded()) return std::nullopt;
  if (any) restore_non_finite(value);
  return value;
}

// ---- ast.literal_eval ---------------------------------------------------------

namespace {

class LiteralParser {
 public:
  // CPython's tokenizer refuses more brackets open at once ("too many nested parentheses", its MAXLEVEL),
  // which also keeps this parser's recursion short.
  static constexpr int kMaxNesting = 200;

  explicit LiteralParser(std::string_view text) : s_(text) {}

  std::optional<OrderedJson> parse() {
    skip_space();
    auto value = expression();
    while (at_ < s_.size() && std::strchr(" \t\f\r\n", s_[at_])) ++at_;
    if (!value || at_ < s_.size()) return std::nullopt;
    return value;
  }

 private:
  // literal_eval reads an expression; "1, 2" is a tuple, which has no JSON form.
  std::optional<OrderedJson> expression() {
    auto first = value();
    skip_space();
    if (!first || peek() == ',') return std::nullopt;
    return first;
  }

  char peek() const { return at_ < s_.size() ? s_[at_] : '\0'; }
  bool accept(char c) {
    if (peek() != c) return false;
    ++at_;
    return true;
  }
  // Spaces, tabs, form feeds; newlines only inside brackets (Python's implicit joining).
  void skip_space() {
    while (at_ < s_.size()) {
      const char c = s_[at_];
      if (c == ' ' || c == '\t' || c == '\f' || (depth_ > 0 && (c == '\n' || c == '\r'))) ++at_;
      else if (c == '\\' && at_ + 1 < s_.size() && s_[at_ + 1] == '\n') at_ += 2;
      else if (c == '#' && depth_ > 0) while (at_ < s_.size() && s_[at_] != '\n') ++at_;
      else break;
    }
  }

  std::optional<OrderedJson> value() {
    skip_space();
    const char c = peek();
    if (c == '[' || c == '(') return sequence(c == '[' ? ']' : ')');
    if (c == '{') return mapping();
    if (c == '-' || c == '+') {
      ++at_;
      skip_space();
      auto operand = number();
      if (!operand) return std::nullopt;
      if (c == '+') return operand;
      if (operand->is_number_float()) return OrderedJson(-operand->get<double>());
      return OrderedJson(-operand->get<long long>());
    }
    const bool fraction = c == '.' && at_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[at_ + 1]));
    if (std::isdigit(static_cast<unsigned char>(c)) || fraction) return number();
    if (c == '"' || c == '\'' || std::isalpha(static_cast<unsigned char>(c))) {
      std::size_t word_end = at_;
      while (word_end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[word_end])) || s_[word_end] == '_')) ++word_end;
      const std::string_view word = s_.substr(at_, word_end - at_);
      if (word_end < s_.size() && (s_[word_end] == '"' || s_[word_end] == '\'')) return strings();
      at_ = word_end;
      if (word == "True") return OrderedJson(true);
      if (word == "False") return OrderedJson(false);
      if (word == "None") return OrderedJson(nullptr);
      return std::nullopt;  // a name: literal_eval refuses it
    }
    return std::nullopt;
  }

  std::optional<OrderedJson> sequence(char close) {
    if (depth_ == kMaxNesting) return std::nullopt;
    ++at_;
    ++depth_;
    OrderedJson items = OrderedJson::array();
    skip_space();
    bool comma = false;
    while (!accept(close)) {
      if (!items.empty() && !comma) return std::nullopt;
      auto item = value();
      if (!item) return std::nullopt;
      items.push_back(*item);
      skip_space();
      comma = accept(',');
      skip_space();
    }
    --depth_;
    if (close == ']') return items;
    if (items.size() == 1 && !comma) return items[0];  // (x) is x
    return std::nullopt;                                // (x,) and () are tuples: no JSON form
  }

  std::optional<OrderedJson> mapping() {
    if (depth_ == kMaxNesting) return std::nullopt;
    ++at_;
    ++depth_;
    OrderedJson object = OrderedJson::object();
    skip_space();
    bool comma = true;
    while (!accept('}')) {
      if (!comma) return std::nullopt;
      auto key = value();
      skip_space();
      if (!key || !accept(':')) return std::nullopt;
      if (!key->is_string()) return std::nullopt;  // no JSON form
      auto item = value();
      if (!item) return std::nullopt;
      object[key->get<std::string>()] = *item;  // a repeated key keeps its first place, the last value
      skip_space();
      comma = accept(',');
      skip_space();
    }
    --depth_;
    return object;
  }

  std::optional<OrderedJson> number() {
    std::size_t end = at_;
    bool real = false;
    std::string digits;
    while (end < s_.size()) {
      const char c = s_[end];
      if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
      else if (c == '_' && !digits.empty()) {}
      else if (c == '.' || c == 'e' || c == 'E') real = true, digits += c;
      else if ((c == '+' || c == '-') && !digits.empty() && (digits.back() == 'e' || digits.back() == 'E')) digits += c;
      else break;
      ++end;
    }
    if (end < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[end])))) return std::nullopt;  // 0x.., 1j, 1L
    at_ = end;
    if (digits.empty()) return std::nullopt;
    if (real) {
      double v = 0;
      const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (r.ptr != digits.data() + digits.size()) return std::nullopt;
      return OrderedJson(v);
    }
    if (digits.size() > 1 && digits[0] == '0' && digits.find_first_not_of('0') != std::string::npos) return std::nullopt;
    long long v = 0;
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (r.ec != std::errc() || r.ptr != digits.data() + digits.size()) return std::nullopt;
    return OrderedJson(v);
  }

  // Adjacent string literals join ("a" 'b' is "ab").
  std::optional<OrderedJson> strings() {
    std::string joined;
    bool any = false;
    for (;;) {
      skip_space();
      std::size_t p = at_;
      bool raw = false;
      while (p < s_.size() && std::isalpha(static_cast<unsigned char>(s_[p]))) {
        const char prefix = char(std::tolower(static_cast<unsigned char>(s_[p])));
        if (prefix == 'r') raw = true;
        else if (prefix != 'u') return any ? std::optional<OrderedJson>(joined) : std::nullopt;  // b'', f'': no
        ++p;
      }
      if (p >= s_.size() || (s_[p] != '"' && s_[p] != '\'')) break;
      at_ = p;
      auto piece = string_literal(raw);
      if (!piece) return std::nullopt;
      joined += *piece;
      any = true;
    }
    if (!any) return std::nullopt;
    return OrderedJson(joined);
  }

  std::optional<std::string> string_literal(bool raw) {
    const char quote = s_[at_];
    const bool triple = s_.substr(at_, 3) == std::string(3, quote);
    at_ += triple ? 3 : 1;
    std::string out;
    while (at_ < s_.size()) {
      const char c = s_[at_];
      if (c == quote && (!triple || s_.substr(at_, 3) == std::string(3, quote))) {
        at_ += triple ? 3 : 1;
        if (!valid_utf8(out)) return std::nullopt;
        return out;
      }
      if (c == '\n' && !triple) return std::nullopt;
      if (c != '\\') {
        out += c;
        ++at_;
        continue;
      }
      if (at_ + 1 >= s_.size()) return std::nullopt;
      const char e = s_[at_ + 1];
      if (raw) {
        out += c;
        out += e;
        at_ += 2;
        continue;
      }
      at_ += 2;
      switch (e) {
        case '\n': break;
        case '\\': out += '\\'; break;
        case '\'': out += '\''; break;
        case '"': out += '"'; break;
        case 'a': out += '\a'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'v': out += '\v'; break;
        case 'x': case 'u': case 'U': {
          const std::size_t width = e == 'x' ? 2 : e == 'u' ? 4 : 8;
          if (at_ + width > s_.size()) return std::nullopt;
          unsigned long code = 0;
          const auto r = std::from_chars(s_.data() + at_, s_.data() + at_ + width, code, 16);
          if (r.ptr != s_.data() + at_ + width || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return std::nullopt;
          out += to_utf8(char32_t(code));
          at_ += width;
          break;
        }
        default:
          if (e >= '0' && e <= '7') {  // up to three octal digits
            unsigned code = unsigned(e - '0');
            for (int k = 0; k < 2 && at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '7'; ++k) code = code * 8 + unsigned(s_[at_++] - '0');
            out += to_utf8(char32_t(code));
          } else {
            out += '\\';  // an unknown escape stays as written
            out += e;
          }
      }
    }
    return std::nullopt;
  }

  static bool valid_utf8(const std::string& s) { return !first_invalid_utf8(s).has_value(); }

  std::string_view s_;
  std::size_t at_ = 0;
  int depth_ = 0;
};

}  // namespace

std::optional<OrderedJson> python_literal_eval(std::string_view text) {
  // literal_eval parses in 'eval' mode: leading spaces and tabs are stripped first.
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return LiteralParser(text).parse();
}

}  // namespace aeval::text
