#include "prompts/template.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <optional>
#include <variant>
#include <vector>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"

namespace aeval::pipeline {

namespace {

using Json = nlohmann::ordered_json;

// ---- expressions -----------------------------------------------------------

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct Expr {
  enum class Kind { literal, variable, attribute, index, filter, negate, both, either, compare, test, list } kind;
  Json literal;
  std::string name;  // variable, attribute, filter or comparison operator; test: "defined"
  std::vector<ExprPtr> operands;
  bool negated = false;  // test: "is not defined"
};

// The result of evaluating an expression: a value or "undefined", with the
// dotted path that was looked up (for error messages).
struct Value {
  bool defined = true;
  Json json;
  std::string path;
};

struct Token {
  enum class Kind { name, string, number, symbol, end } kind;
  std::string text;
  Json number;
  std::size_t offset = 0;
};

class ExpressionParser {
 public:
  ExpressionParser(std::string_view source, std::function<Error(std::size_t, const std::string&)> fail)
      : fail_(std::move(fail)) {
    tokenize(source);
  }

  ExprPtr parse_all() {
    ExprPtr e = parse_or();
    expect_end();
    return e;
  }
  ExprPtr parse_or() {
    ExprPtr left = parse_and();
    while (accept_name("or")) left = binary(Expr::Kind::either, std::move(left), parse_and());
    return left;
  }
  const Token& peek() const { return tokens_[pos_]; }
  bool accept_name(const char* word) {
    if (peek().kind == Token::Kind::name && peek().text == word) return ++pos_, true;
    return false;
  }
  std::string expect_name(const char* what) {
    if (peek().kind != Token::Kind::name) throw fail_(peek().offset, fmt::format("expected {}", what));
    return tokens_[pos_++].text;
  }
  void expect_end() {
    if (peek().kind != Token::Kind::end) throw fail_(peek().offset, fmt::format("unexpected '{}'", peek().text));
  }

 private:
  void tokenize(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
      const char c = s[i];
      if (std::isspace(static_cast<unsigned char>(c))) {
        ++i;
      } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
        std::size_t j = i;
        while (j < s.size() && (std::isalnum(static_cast<unsigned char>(s[j])) || s[j] == '_')) ++j;
        tokens_.push_back({Token::Kind::name, std::string(s.substr(i, j - i)), {}, i});
        i = j;
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        std::size_t j = i;
        bool real = false;
        while (j < s.size() && (std::isdigit(static_cast<unsigned char>(s[j])) || s[j] == '.')) real |= s[j++] == '.';
        const std::string text(s.substr(i, j - i));
        tokens_.push_back({Token::Kind::number, text, number(text, real, i), i});
        i = j;
      } else if (c == '"' || c == '\'') {
        std::string value;
        std::size_t j = i + 1;
        for (; j < s.size() && s[j] != c; ++j) {
          if (s[j] == '\\' && j + 1 < s.size()) {
            const char e = s[++j];
            value += e == 'n' ? '\n' : e == 't' ? '\t' : e;
          } else {
            value += s[j];
          }
        }
        if (j >= s.size()) throw fail_(i, "unterminated string");
        tokens_.push_back({Token::Kind::string, value, {}, i});
        i = j + 1;
      } else {
        static const char* const kTwo[] = {"==", "!=", "<=", ">="};
        std::string symbol(1, c);
        for (const char* two : kTwo)
          if (s.substr(i, 2) == two) symbol = two;
        if (std::string_view(".[](),|<>-").find(c) == std::string_view::npos && symbol.size() == 1)
          throw fail_(i, fmt::format("unexpected character '{}'", c));
        tokens_.push_back({Token::Kind::symbol, symbol, {}, i});
        i += symbol.size();
      }
    }
    tokens_.push_back({Token::Kind::end, "end of expression", {}, s.size()});
  }

  // The whole literal or a syntax error ("1.2.3", or too large for a long long or a double).
  Json number(const std::string& text, bool real, std::size_t offset) const {
    const char* end = text.data() + text.size();
    if (real) {
      double value = 0;
      if (const auto r = std::from_chars(text.data(), end, value); r.ec == std::errc() && r.ptr == end) return value;
    } else {
      long long value = 0;
      if (const auto r = std::from_chars(text.data(), end, value); r.ec == std::errc() && r.ptr == end) return value;
    }
    throw fail_(offset, fmt::format("'{}' is not a number aeval can read", text));
  }

  bool accept_symbol(const char* symbol) {
    if (peek().kind == Token::Kind::symbol && peek().text == symbol) return ++pos_, true;
    return false;
  }
  void expect_symbol(const char* symbol) {
    if (!accept_symbol(symbol)) throw fail_(peek().offset, fmt::format("expected '{}' before '{}'", symbol, peek().text));
  }
  static ExprPtr binary(Expr::Kind kind, ExprPtr a, ExprPtr b, std::string name = {}) {
    auto e = std::make_unique<Expr>(Expr{kind, {}, std::move(name), {}, false});
    e->operands.push_back(std::move(a));
    e->operands.push_back(std::move(b));
    return e;
  }
  ExprPtr parse_and() {
    ExprPtr left = parse_not();
    while (accept_name("and")) left = binary(Expr::Kind::both, std::move(left), parse_not());
    return left;
  }
  ExprPtr parse_not() {
    if (accept_name("not")) {
      auto e = std::make_unique<Expr>(Expr{Expr::Kind::negate, {}, {}, {}, false});
      e->operands.push_back(parse_not());
      return e;
    }
    return parse_compare();
  }
  ExprPtr parse_compare() {
    ExprPtr left = parse_filtered();
    if (accept_name("is")) {
      auto e = std::make_unique<Expr>(Expr{Expr::Kind::test, {}, {}, {}, accept_name("not")});
      e->name = expect_name("a test name ('defined')");
      if (e->name != "defined") throw fail_(tokens_[pos_ - 1].offset, "the only test is 'defined'");
      e->operands.push_back(std::move(left));
      return e;
    }
    for (const char* op : {"==", "!=", "<=", ">=", "<", ">"})
      if (accept_symbol(op)) return binary(Expr::Kind::compare, std::move(left), parse_filtered(), op);
    if (accept_name("in")) return binary(Expr::Kind::compare, std::move(left), parse_filtered(), "in");
    if (peek().kind == Token::Kind::name && peek().text == "not" && tokens_[pos_ + 1].text == "in") {
      pos_ += 2;
      return binary(Expr::Kind::compare, std::move(left), parse_filtered(), "not in");
    }
    return left;
  }
  ExprPtr parse_filtered() {
    ExprPtr value = parse_postfix();
    while (accept_symbol("|")) {
      auto e = std::make_unique<Expr>(Expr{Expr::Kind::filter, {}, expect_name("a filter name"), {}, false});
      e->operands.push_back(std::move(value));
      if (accept_symbol("(")) {
        if (!accept_symbol(")")) {
          do e->operands.push_back(parse_or());
          while (accept_symbol(","));
          expect_symbol(")");
        }
      }
      value = std::move(e);
    }
    return value;
  }
  ExprPtr parse_postfix() {
    ExprPtr value = parse_primary();
    for (;;) {
      if (accept_symbol(".")) {
        auto e = std::make_unique<Expr>(Expr{Expr::Kind::attribute, {}, expect_name("a field name after '.'"), {}, false});
        e->operands.push_back(std::move(value));
        value = std::move(e);
      } else if (accept_symbol("[")) {
        value = binary(Expr::Kind::index, std::move(value), parse_or());
        expect_symbol("]");
      } else {
        return value;
      }
    }
  }
  ExprPtr parse_primary() {
    const Token& t = peek();
    if (t.kind == Token::Kind::string || t.kind == Token::Kind::number) {
      ++pos_;
      return std::make_unique<Expr>(
          Expr{Expr::Kind::literal, t.kind == Token::Kind::string ? Json(t.text) : t.number, {}, {}, false});
    }
    if (t.kind == Token::Kind::name) {
      ++pos_;
      if (t.text == "true" || t.text == "True") return std::make_unique<Expr>(Expr{Expr::Kind::literal, true, {}, {}, false});
      if (t.text == "false" || t.text == "False")
        return std::make_unique<Expr>(Expr{Expr::Kind::literal, false, {}, {}, false});
      if (t.text == "none" || t.text == "None")
        return std::make_unique<Expr>(Expr{Expr::Kind::literal, nullptr, {}, {}, false});
      return std::make_unique<Expr>(Expr{Expr::Kind::variable, {}, t.text, {}, false});
    }
    if (accept_symbol("-")) {  // negative number literal
      if (peek().kind != Token::Kind::number) throw fail_(peek().offset, "expected a number after '-'");
      const Json n = tokens_[pos_++].number;
      return std::make_unique<Expr>(
          Expr{Expr::Kind::literal, n.is_number_integer() ? Json(-n.get<long long>()) : Json(-n.get<double>()), {}, {}, false});
    }
    if (accept_symbol("(")) {
      ExprPtr inner = parse_or();
      expect_symbol(")");
      return inner;
    }
    if (accept_symbol("[")) {
      auto e = std::make_unique<Expr>(Expr{Expr::Kind::list, {}, {}, {}, false});
      if (!accept_symbol("]")) {
        do e->operands.push_back(parse_or());
        while (accept_symbol(","));
        expect_symbol("]");
      }
      return e;
    }
    throw fail_(t.offset, fmt::format("expected a value, found '{}'", t.text));
  }

  std::function<Error(std::size_t, const std::string&)> fail_;
  std::vector<Token> tokens_;
  std::size_t pos_ = 0;
};

bool truthy(const Value& v) {
  if (!v.defined) return false;
  const Json& j = v.json;
  if (j.is_null()) return false;
  if (j.is_boolean()) return j.get<bool>();
  if (j.is_number()) return j.get<double>() != 0;
  if (j.is_string()) return !j.get<std::string>().empty();
  return !j.empty();
}

// How a value prints: strings as they are, integers without a decimal point,
// reals in shortest round-trip form, booleans and null as Jinja does.
std::string to_text(const Json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_null()) return "None";
  if (j.is_boolean()) return j.get<bool>() ? "True" : "False";
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace

// ---- statements -------------------------------------------------------------

struct Template::Node {
  enum class Kind { sequence, text, output, branch, loop } kind = Kind::sequence;
  std::string text;                                // text
  std::vector<ExprPtr> conditions;                 // branch: one per arm (else: none)
  std::vector<std::unique_ptr<Node>> children;     // sequence: parts; branch: arms; loop: body
  std::string loop_variable;                       // loop
  ExprPtr value;                                   // output; loop: the iterable
  std::size_t line = 0;
};

namespace {

struct Segment {
  enum class Kind { text, output, tag } kind;
  std::string body;
  std::size_t line, offset;
};

std::size_t line_of(std::string_view s, std::size_t offset) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < offset && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

}  // namespace

namespace {
// jinja2's lexer: every line ending becomes "\n", and one final newline goes (keep_trailing_newline=False).
std::string jinja2_source(std::string_view source) {
  std::string out;
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\r') {
      out += '\n';
      if (i + 1 < source.size() && source[i + 1] == '\n') ++i;
    } else {
      out += source[i];
    }
  }
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}
}  // namespace

Template::Template(std::string_view source, std::string name, TemplateDialect dialect)
    : source_(dialect == TemplateDialect::jinja2 ? jinja2_source(source) : std::string(source)),
      name_(std::move(name)),
      dialect_(dialect) {
  const auto syntax_error = [&](std::size_t offset, const std::string& message) {
    return Error(ErrorCategory::config,
                 fmt::format("{}: template line {}: {}", name_, line_of(source_, offset), message));
  };

  // Split into text, {{ output }} and {% tag %} segments; drop comments;
  // apply '-' whitespace control to the neighbouring text.
  std::vector<Segment> segments;
  bool strip_next = false;
  std::size_t i = 0;
  while (i < source_.size()) {
    std::size_t open = source_.find('{', i);
    while (open != std::string::npos && open + 1 < source_.size() && std::string_view("{%#").find(source_[open + 1]) == std::string_view::npos)
      open = source_.find('{', open + 1);
    if (open == std::string::npos || open + 1 >= source_.size()) open = source_.size();
    std::string text = source_.substr(i, open - i);
    if (strip_next) text.erase(0, text.find_first_not_of(" \t\r\n") == std::string::npos ? text.size() : text.find_first_not_of(" \t\r\n"));
    strip_next = false;
    if (open == source_.size()) {
      if (!text.empty()) segments.push_back({Segment::Kind::text, text, 0, i});
      break;
    }
    const char type = source_[open + 1];
    const std::string close = type == '{' ? "}}" : type == '%' ? "%}" : "#}";
    const std::size_t end = source_.find(close, open + 2);
    if (end == std::string::npos) throw syntax_error(open, fmt::format("'{{{}' is never closed with '{}'", type, close));
    std::string body = source_.substr(open + 2, end - open - 2);
    if (!body.empty() && body.front() == '-') {
      body.erase(0, 1);
      const auto last = text.find_last_not_of(" \t\r\n");
      text.erase(last == std::string::npos ? 0 : last + 1);
    }
    if (!body.empty() && body.back() == '-') {
      body.pop_back();
      strip_next = true;
    }
    if (!text.empty()) segments.push_back({Segment::Kind::text, text, 0, i});
    if (type != '#')
      segments.push_back({type == '{' ? Segment::Kind::output : Segment::Kind::tag, body, line_of(source_, open), open + 2});
    i = end + 2;
  }

  // Recursive descent over the segments.
  std::size_t at = 0;
  const auto expression = [&](const std::string& text, std::size_t offset) {
    return ExpressionParser(text, [&](std::size_t o, const std::string& m) { return syntax_error(offset + o, m); })
        .parse_all();
  };
  std::function<std::unique_ptr<Node>(const std::vector<std::string>&, std::string*)> parse_block =
      [&](const std::vector<std::string>& terminators, std::string* found) {
        auto block = std::make_unique<Node>();
        while (at < segments.size()) {
          const Segment& s = segments[at];
          if (s.kind == Segment::Kind::text) {
            auto n = std::make_unique<Node>();
            n->kind = Node::Kind::text;
            n->text = s.body;
            block->children.push_back(std::move(n));
            ++at;
            continue;
          }
          if (s.kind == Segment::Kind::output) {
            auto n = std::make_unique<Node>();
            n->kind = Node::Kind::output;
            n->value = expression(s.body, s.offset);
            n->line = s.line;
            block->children.push_back(std::move(n));
            ++at;
            continue;
          }
          const std::size_t first = s.body.find_first_not_of(" \t\r\n");
          const std::size_t word_end = s.body.find_first_of(" \t\r\n", first);
          const std::string keyword = first == std::string::npos ? "" : s.body.substr(first, word_end - first);
          const std::string rest = word_end == std::string::npos ? "" : s.body.substr(word_end);
          for (const auto& t : terminators)
            if (keyword == t) {
              if (found) *found = keyword;
              return block;
            }
          ++at;
          if (keyword == "if") {
            auto n = std::make_unique<Node>();
            n->kind = Node::Kind::branch;
            n->line = s.line;
            std::string condition = rest, ended;
            std::size_t condition_offset = s.offset + word_end;
            for (;;) {
              n->conditions.push_back(expression(condition, condition_offset));
              n->children.push_back(parse_block({"elif", "else", "endif"}, &ended));
              if (at >= segments.size()) throw syntax_error(s.offset, "'if' without 'endif'");
              const Segment& t = segments[at++];
              if (ended == "elif") {
                const std::size_t k = t.body.find("elif") + 4;
                condition = t.body.substr(k);
                condition_offset = t.offset + k;
                continue;
              }
              if (ended == "else") {
                n->children.push_back(parse_block({"endif"}, &ended));
                if (at >= segments.size()) throw syntax_error(s.offset, "'if' without 'endif'");
                ++at;
              }
              break;
            }
            block->children.push_back(std::move(n));
          } else if (keyword == "for") {
            auto n = std::make_unique<Node>();
            n->kind = Node::Kind::loop;
            n->line = s.line;
            ExpressionParser header(rest, [&](std::size_t o, const std::string& m) {
              return syntax_error(s.offset + word_end + o, m);
            });
            n->loop_variable = header.expect_name("a loop variable");
            if (!header.accept_name("in")) throw syntax_error(s.offset, "expected 'for NAME in EXPRESSION'");
            n->value = header.parse_or();
            header.expect_end();
            std::string ended;
            n->children.push_back(parse_block({"endfor"}, &ended));
            if (at >= segments.size()) throw syntax_error(s.offset, "'for' without 'endfor'");
            ++at;
            block->children.push_back(std::move(n));
          } else {
            throw syntax_error(s.offset, keyword.empty() ? "empty tag" : fmt::format("unknown or misplaced tag '{}'", keyword));
          }
        }
        if (!terminators.empty()) throw syntax_error(source_.size(), fmt::format("missing '{{% {} %}}'", terminators.back()));
        return block;
      };
  root_ = parse_block({}, nullptr);
}

Template::~Template() = default;
Template::Template(Template&&) noexcept = default;
Template& Template::operator=(Template&&) noexcept = default;

namespace {

// A filter's complaint about its input; the renderer adds the template's name and line.
struct FilterError {
  std::string message;
};

std::string text_of(const char* filter, const Json& value) {
  if (!value.is_string()) throw FilterError{fmt::format("filter '{}' needs text, got {}", filter, value.type_name())};
  return value.get<std::string>();
}

// The filters, each once: the arguments it takes and what it makes of a defined value (`default`,
// which also sees undefined ones, is the renderer's).
struct Filter {
  const char* name;
  std::size_t min_args, max_args;
  Json (*apply)(const Json& value, const std::vector<Json>& args);
};

const Filter kFilters[] = {
    {"lower", 0, 0, [](const Json& v, const std::vector<Json>&) -> Json { return aeval::text::lower(text_of("lower", v)); }},
    {"upper", 0, 0, [](const Json& v, const std::vector<Json>&) -> Json { return aeval::text::upper(text_of("upper", v)); }},
    {"trim", 0, 0, [](const Json& v, const std::vector<Json>&) -> Json { return aeval::text::strip(text_of("trim", v)); }},
    {"join", 0, 1,
     [](const Json& v, const std::vector<Json>& args) -> Json {
       if (!v.is_array()) throw FilterError{fmt::format("filter 'join' needs a list, got {}", v.type_name())};
       const std::string separator = args.empty() ? "" : to_text(args[0]);
       std::string out;
       for (std::size_t k = 0; k < v.size(); ++k) out += (k ? separator : "") + to_text(v[k]);
       return out;
     }},
    {"length", 0, 0,
     [](const Json& v, const std::vector<Json>&) -> Json {
       if (v.is_string()) return aeval::text::to_u32(v.get<std::string>()).size();
       if (v.is_array() || v.is_object()) return v.size();
       throw FilterError{fmt::format("filter 'length' needs text, a list or a map, got {}", v.type_name())};
     }},
    {"replace", 2, 2,
     [](const Json& v, const std::vector<Json>& args) -> Json {
       const std::string s = text_of("replace", v), from = to_text(args[0]), to = to_text(args[1]);
       if (from.empty()) return s;
       std::string out;
       std::size_t pos = 0;
       for (std::size_t hit; (hit = s.find(from, pos)) != std::string::npos; pos = hit + from.size())
         out.append(s, pos, hit - pos).append(to);
       return out.append(s, pos);
     }},
    {"tojson", 0, 0,
     [](const Json& v, const std::vector<Json>&) -> Json { return v.dump(-1, ' ', false, Json::error_handler_t::replace); }},
};

class Renderer {
 public:
  Renderer(const std::string& name, const Json& context, TemplateDialect dialect)
      : name_(name), context_(context), jinja2_(dialect == TemplateDialect::jinja2) {}

  template <class NodeT>
  void render(const NodeT& node, std::string& out) {
    using Kind = typename NodeT::Kind;
    switch (node.kind) {
      case Kind::sequence:
        for (const auto& child : node.children) render(*child, out);
        break;
      case Kind::text:
        out += node.text;
        break;
      case Kind::output:
        line_ = node.line;
        out += jinja2_ ? aeval::text::python_str(require(eval(*node.value))) : to_text(require(eval(*node.value)));
        break;
      case Kind::branch:
        line_ = node.line;
        for (std::size_t arm = 0; arm < node.children.size(); ++arm) {
          if (arm >= node.conditions.size() || truthy(eval(*node.conditions[arm]))) {
            render(*node.children[arm], out);
            break;
          }
        }
        break;
      case Kind::loop: {
        line_ = node.line;
        Json items = require(eval(*node.value));
        if (jinja2_ && items.is_string()) {  // Python iterates a string's characters
          Json characters = Json::array();
          for (const char32_t c : aeval::text::to_u32(items.get<std::string>())) characters.push_back(aeval::text::to_utf8(c));
          items = std::move(characters);
        }
        if (!items.is_array()) fail(fmt::format("'for' needs a list, got {}", items.type_name()));
        for (std::size_t k = 0; k < items.size(); ++k) {
          scopes_.push_back({"loop", Json{{"index", k + 1}, {"index0", k}, {"first", k == 0},
                                          {"last", k + 1 == items.size()}, {"length", items.size()}}});
          scopes_.push_back({node.loop_variable, items[k]});
          render(*node.children[0], out);
          scopes_.pop_back();
          scopes_.pop_back();
        }
        break;
      }
    }
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    throw Error(ErrorCategory::config, fmt::format("{}: template line {}: {}", name_, line_, message));
  }
  const Json& require(const Value& v) const {
    if (!v.defined && jinja2_) fail(fmt::format("'{}' is undefined", v.path));
    if (!v.defined)
      fail(fmt::format("'{}' is not defined for this sample (use `| default(...)` if it may be missing)", v.path));
    return v.json;
  }

  Value eval(const Expr& e) {
    switch (e.kind) {
      case Expr::Kind::literal:
        return {true, e.literal, ""};
      case Expr::Kind::variable: {
        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
          if (it->first == e.name) return {true, it->second, e.name};
        if (context_.is_object() && context_.contains(e.name)) return {true, context_[e.name], e.name};
        return {false, nullptr, e.name};
      }
      case Expr::Kind::attribute: {
        Value base = eval(*e.operands[0]);
        const std::string path = base.path + "." + e.name;
        if (base.defined && base.json.is_object() && base.json.contains(e.name)) return {true, base.json[e.name], path};
        return {false, nullptr, path};
      }
      case Expr::Kind::index: {
        Value base = eval(*e.operands[0]);
        const Json key = require(eval(*e.operands[1]));
        const std::string path = base.path + "[" + to_text(key) + "]";
        if (base.defined && base.json.is_array() && key.is_number_integer()) {
          long k = key.get<long>();
          if (k < 0) k += long(base.json.size());
          if (k >= 0 && k < long(base.json.size())) return {true, base.json[std::size_t(k)], path};
        }
        if (base.defined && base.json.is_string() && key.is_number_integer()) {
          const std::u32string text = aeval::text::to_u32(base.json.get<std::string>());
          long k = key.get<long>();
          if (k < 0) k += long(text.size());
          if (k >= 0 && k < long(text.size())) return {true, aeval::text::to_utf8(text[std::size_t(k)]), path};
        }
        if (base.defined && base.json.is_object() && key.is_string() && base.json.contains(key.get<std::string>()))
          return {true, base.json[key.get<std::string>()], path};
        return {false, nullptr, path};
      }
      case Expr::Kind::list: {
        Json items = Json::array();
        for (const auto& item : e.operands) items.push_back(require(eval(*item)));
        return {true, items, ""};
      }
      case Expr::Kind::negate:
        return {true, !truthy(eval(*e.operands[0])), ""};
      case Expr::Kind::both:
        return {true, truthy(eval(*e.operands[0])) && truthy(eval(*e.operands[1])), ""};
      case Expr::Kind::either:
        return {true, truthy(eval(*e.operands[0])) || truthy(eval(*e.operands[1])), ""};
      case Expr::Kind::test:
        return {true, eval(*e.operands[0]).defined != e.negated, ""};
      case Expr::Kind::compare:
        return {true, compare(e.name, require(eval(*e.operands[0])), require(eval(*e.operands[1]))), ""};
      case Expr::Kind::filter:
        return {true, filter(e), ""};
    }
    fail("internal: unknown expression");
  }

  bool compare(const std::string& op, const Json& a, const Json& b) {
    if (op == "in" || op == "not in") {
      bool found = false;
      if (b.is_string() && a.is_string()) found = b.get<std::string>().find(a.get<std::string>()) != std::string::npos;
      else if (b.is_array()) for (const auto& item : b) found = found || item == a;
      else if (b.is_object() && a.is_string()) found = b.contains(a.get<std::string>());
      else fail(fmt::format("'{}' needs a string, list or map on its right", op));
      return op == "in" ? found : !found;
    }
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (!((a.is_number() && b.is_number()) || (a.is_string() && b.is_string())))
      fail(fmt::format("cannot order {} and {} with '{}'", a.type_name(), b.type_name(), op));
    if (op == "<") return a < b;
    if (op == ">") return b < a;
    if (op == "<=") return !(b < a);
    return !(a < b);
  }

  Json filter(const Expr& e) {
    const std::string& f = e.name;
    const std::size_t argc = e.operands.size() - 1;
    const auto arity = [&](std::size_t lo, std::size_t hi) {
      if (argc < lo || argc > hi) fail(fmt::format("filter '{}' takes {} to {} arguments, got {}", f, lo, hi, argc));
    };
    if (f == "default") {  // the one filter that sees an undefined value
      arity(1, 1);
      Value v = eval(*e.operands[0]);
      return v.defined && (jinja2_ || !v.json.is_null()) ? v.json : require(eval(*e.operands[1]));
    }
    const Filter* found = nullptr;
    for (const auto& candidate : kFilters)
      if (f == candidate.name) found = &candidate;
    if (!found) {
      std::string names = "default";
      for (const auto& candidate : kFilters) names += std::string(", ") + candidate.name;
      fail(fmt::format("unknown filter '{}' (filters: {})", f, names));
    }
    const Json value = require(eval(*e.operands[0]));
    arity(found->min_args, found->max_args);
    std::vector<Json> args;
    for (std::size_t k = 1; k <= argc; ++k) args.push_back(require(eval(*e.operands[k])));
    try {
      return found->apply(value, args);
    } catch (const FilterError& error) {
      fail(error.message);
    }
  }

  const std::string& name_;
  const Json& context_;
  bool jinja2_;
  std::vector<std::pair<std::string, Json>> scopes_;
  std::size_t line_ = 0;
};

}  // namespace

std::string Template::render(const nlohmann::ordered_json& context) const {
  std::string out;
  Renderer(name_, context, dialect_).render(*root_, out);
  return out;
}

std::string Template::render(const nlohmann::json& context) const { return render(nlohmann::ordered_json(context)); }

}  // namespace aeval::pipeline
