#include "prompts/python_source.hpp"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <iterator>

#include "aeval/error.hpp"
#include "datasets/dataset_source.hpp"

namespace aeval::pipeline {

std::filesystem::path publisher_file(const registry::Args& args, const std::string& relative,
                                     const std::string& sha256_arg) {
  std::string base = args.text("release");
  if (!base.empty() && base.back() != '/') base += '/';
  return datasets::download_pinned(args.entry().name, base + relative, args.text(sha256_arg), "prompt");
}

PythonSource::PythonSource(const std::filesystem::path& file, std::string what, const std::string& scope)
    : file_(file), what_(std::move(what)), scope_(scope.empty() ? file.filename().string() : scope) {
  if (scope_.rfind("def ", 0) == 0) scope_ = scope_.substr(4, scope_.find('(') - 4);  // the function's name
  std::ifstream in(file, std::ios::binary);
  const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (scope.empty()) {
    body_ = source;
    return;
  }
  const auto start = source.find(scope);
  if (start == std::string::npos) throw missing(scope);
  const auto end = source.find("\ndef ", start + 1);
  body_ = source.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::size_t PythonSource::after(const std::string& anchor, std::size_t from) const {
  const auto at = body_.find(anchor, from);
  if (at == std::string::npos) throw missing(anchor);
  return at + anchor.size();
}

std::string PythonSource::text_after(const std::string& anchor, std::size_t& at) const {
  at = after(anchor, at);
  return text_of(literal(at));
}

std::string PythonSource::literal(std::size_t& at) const {
  skip_space(at);
  const std::size_t start = at;
  while (at < body_.size() && std::string("fFrRuU").find(body_[at]) != std::string::npos) ++at;
  if (at >= body_.size() || (body_[at] != '"' && body_[at] != '\'')) throw unexpected(start, "a string");
  const std::string quote = body_.compare(at, 3, std::string(3, body_[at])) == 0 ? std::string(3, body_[at])
                                                                                  : std::string(1, body_[at]);
  for (at += quote.size(); at < body_.size(); ++at) {
    if (body_[at] == '\\') {
      ++at;
    } else if (body_.compare(at, quote.size(), quote) == 0) {
      at += quote.size();
      return body_.substr(start, at - start);
    }
  }
  throw unexpected(start, "the string's end");
}

std::string PythonSource::text_of(const std::string& written) const {
  std::size_t quote = 0;
  std::string plain;  // the prefix without f, then the quoted text
  for (; quote < written.size() && written[quote] != '"' && written[quote] != '\''; ++quote)
    if (written[quote] != 'f' && written[quote] != 'F') plain += written[quote];
  plain += written.substr(quote);
  const auto value = text::python_literal_eval(plain);
  if (!value || !value->is_string())
    throw Error(ErrorCategory::data, fmt::format("{}: cannot read {}", file_.string(), written));
  return value->get<std::string>();
}

std::string PythonSource::strings(std::size_t& at) const {
  skip_space(at);
  if (body_[at] != '(') return text_of(literal(at));
  ++at;
  std::string joined;
  for (skip_space(at); at < body_.size() && body_[at] != ')'; skip_space(at)) joined += text_of(literal(at));
  if (at >= body_.size()) throw unexpected(at, "')'");
  ++at;
  return joined;
}

std::map<std::string, std::string> PythonSource::dictionary(std::size_t& at) const {
  std::map<std::string, std::string> out;
  for (skip_space(at); at < body_.size() && body_[at] != '}'; skip_space(at)) {
    const std::string key = text_of(literal(at));
    skip_space(at);
    if (body_[at] != ':') throw unexpected(at, "':'");
    ++at;
    out[key] = strings(at);
    skip_space(at);
    if (body_[at] == ',') ++at;
  }
  if (at >= body_.size()) throw unexpected(at, "'}'");
  ++at;
  return out;
}

std::vector<std::string> PythonSource::string_list(std::size_t& at) const {
  skip_space(at);
  if (at >= body_.size() || body_[at] != '[') throw unexpected(at, "'['");
  std::vector<std::string> out;
  for (++at, skip_space(at); at < body_.size() && body_[at] != ']'; skip_space(at)) {
    out.push_back(text_of(literal(at)));
    skip_space(at);
    if (at < body_.size() && body_[at] == ',') ++at;
  }
  if (at >= body_.size()) throw unexpected(at, "']'");
  ++at;
  return out;
}

text::OrderedJson PythonSource::value(std::size_t& at) const {
  skip_space(at);
  const std::size_t start = at;
  int depth = 0;
  do {
    if (at >= body_.size()) throw unexpected(start, "the literal's end");
    const char c = body_[at];
    if (c == '"' || c == '\'') {
      literal(at);
      continue;
    }
    if (c == '#') {  // a comment runs to the line's end
      at = body_.find('\n', at);
      continue;
    }
    if (c == '{' || c == '[' || c == '(') ++depth;
    if (c == '}' || c == ']' || c == ')') --depth;
    ++at;
  } while (depth > 0);
  const auto v = text::python_literal_eval(std::string_view(body_).substr(start, at - start));
  if (!v) throw unexpected(start, "a literal");
  return *v;
}

void PythonSource::skip_space(std::size_t& at) const {
  while (at < body_.size() && std::isspace(static_cast<unsigned char>(body_[at]))) ++at;
}

Error PythonSource::missing(const std::string& anchor) const {
  return Error(ErrorCategory::data,
               fmt::format("{}: no '{}' where {} read from", file_.string(), anchor, what_));
}

Error PythonSource::unexpected(std::size_t at, const std::string& expected) const {
  return Error(ErrorCategory::data,
               fmt::format("{}: expected {} in {} at '{}'", file_.string(), expected, scope_, body_.substr(at, 40)));
}

}  // namespace aeval::pipeline
