// AudioCapBench's judge prompt, read from its publishers' pinned audiocapbench/metrics.py (issue 56): the words of
// evaluate_with_llm_judge's f-string, of its category guidance, of the transcript line and of the reference lines,
// put together per sample as that function puts them together. The file is checked by SHA-256 when it is fetched,
// so each piece is where that commit has it; a file without one is refused naming what is missing.
#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <map>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "components/prompt.hpp"
#include "datasets/dataset_source.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

namespace {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using text::OrderedJson;

constexpr const char* kMetricsFile = "audiocapbench/metrics.py";
constexpr const char* kFunction = "def evaluate_with_llm_judge(";

// Reads the function's pieces from the source, in the order the function states them.
class FunctionSource {
 public:
  FunctionSource(std::string source, std::filesystem::path file) : file_(std::move(file)) {
    const auto start = source.find(kFunction);
    if (start == std::string::npos) throw missing(kFunction);
    const auto end = source.find("\ndef ", start + 1);
    body_ = source.substr(start, end == std::string::npos ? std::string::npos : end - start);
  }

  // The position just after `anchor`, searched from `from`.
  std::size_t after(const std::string& anchor, std::size_t from = 0) const {
    const auto at = body_.find(anchor, from);
    if (at == std::string::npos) throw missing(anchor);
    return at + anchor.size();
  }

  // The string literal at `at` (whitespace first), as written: prefix letters and quotes included.
  std::string literal(std::size_t& at) const {
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

  // The text of a literal as Python reads it; an f-string's fields stay as written ("{name}"), for python_format.
  std::string text_of(const std::string& written) const {
    std::size_t quote = 0;
    std::string plain;  // the prefix without f, then the quoted text
    for (; quote < written.size() && written[quote] != '"' && written[quote] != '\''; ++quote)
      if (written[quote] != 'f' && written[quote] != 'F') plain += written[quote];
    plain += written.substr(quote);
    const auto value = text::python_literal_eval(plain);
    if (!value || !value->is_string()) throw Error(ErrorCategory::data, fmt::format("{}: cannot read {}", file_.string(), written));
    return value->get<std::string>();
  }

  // Adjacent string literals in parentheses, joined ("(" "a" "b" ")"); or one literal.
  std::string strings(std::size_t& at) const {
    skip_space(at);
    if (body_[at] != '(') return text_of(literal(at));
    ++at;
    std::string joined;
    for (skip_space(at); at < body_.size() && body_[at] != ')'; skip_space(at)) joined += text_of(literal(at));
    if (at >= body_.size()) throw unexpected(at, "')'");
    ++at;
    return joined;
  }

  // {"key": strings, ...} at `at`.
  std::map<std::string, std::string> dictionary(std::size_t& at) const {
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

 private:
  void skip_space(std::size_t& at) const {
    while (at < body_.size() && std::isspace(static_cast<unsigned char>(body_[at]))) ++at;
  }
  Error missing(const std::string& what) const {
    return Error(ErrorCategory::data, fmt::format("{}: no '{}' where AudioCapBench's judge prompt is read from",
                                                  file_.string(), what));
  }
  Error unexpected(std::size_t at, const std::string& expected) const {
    return Error(ErrorCategory::data, fmt::format("{}: expected {} in evaluate_with_llm_judge at '{}'", file_.string(),
                                                  expected, body_.substr(at, 40)));
  }

  std::filesystem::path file_;
  std::string body_;
};

class AudioCapBenchJudgePrompt final : public Prompt::EntryForm {
 public:
  explicit AudioCapBenchJudgePrompt(const Args& args) : EntryForm(args.entry()) {
    std::string base = args.text("release");
    if (!base.empty() && base.back() != '/') base += '/';
    const auto file = datasets::download_pinned(args.entry().name, base + kMetricsFile, args.text("sha256"), "prompt");
    std::ifstream in(file, std::ios::binary);
    const FunctionSource f(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()), file);
    // refs_text = "\n".join(f"  - {r}" for r in references)
    std::size_t at = f.after("refs_text = ");
    joiner_ = f.text_of(f.literal(at));
    at = f.after(".join(", at);
    reference_line_ = f.text_of(f.literal(at));
    f.after(" for r in references)", at);
    // category_guidance = {"music": (...), "speech": (...)}.get(category, (...))
    at = f.after("category_guidance = {");
    guidance_ = f.dictionary(at);
    at = f.after(".get(category, ", at);
    default_guidance_ = f.strings(at);
    // if category == "speech" and transcript: category_guidance += f'...{transcript}...'
    at = f.after("if category == \"speech\" and transcript:", at);
    at = f.after("category_guidance += ", at);
    transcript_line_ = f.text_of(f.literal(at));
    // prompt = f"""...{category_guidance}...{refs_text}...{prediction}..."""
    at = f.after("prompt = ", at);
    prompt_ = f.text_of(f.literal(at));
    // The one message: messages=[{"role": "user", "content": prompt}]
    f.after("messages=[{\"role\": \"user\", \"content\": prompt}]", at);
  }

  RenderedPrompt render(const Sample& sample) const override {
    const nlohmann::json& fields = sample.fields.is_object() ? sample.fields : nlohmann::json::object();
    const auto text_field = [&](const char* name) {
      return fields.contains(name) && fields[name].is_string() ? fields[name].get<std::string>() : std::string();
    };
    std::string references;
    if (fields.contains("references"))
      for (const auto& r : fields["references"]) {
        if (!references.empty()) references += joiner_;
        references += text::python_format(reference_line_, OrderedJson{{"r", r}});
      }
    const std::string category = text_field("category"), transcript = text_field("transcript");
    const auto found = guidance_.find(category);
    std::string guidance = found != guidance_.end() ? found->second : default_guidance_;
    if (category == "speech" && !transcript.empty())
      guidance += text::python_format(transcript_line_, OrderedJson{{"transcript", transcript}});
    const std::string prompt = text::python_format(
        prompt_, OrderedJson{{"category_guidance", guidance}, {"refs_text", references}, {"prediction", text_field("prediction")}});
    RenderedPrompt r;
    r.shape = nlohmann::json::array({{{"role", "user"}, {"content", {{{"type", "text"}, {"text", prompt}}}}}});
    return r;
  }

 private:
  std::string joiner_, reference_line_, default_guidance_, transcript_line_, prompt_;
  std::map<std::string, std::string> guidance_;
};

const PromptClasses::Registration kAudioCapBenchJudgeClass{
    {Kind::prompt, "audiocapbench_judge",
     "AudioCapBench's judge prompt as its publishers' metrics.py (evaluate_with_llm_judge) builds it, read from their "
     "release at its commit: the category's guidance, the transcript of speech, the reference captions, the prediction",
     {arg::required_text("release", "where the release's files are, at its commit (raw files of the repository)"),
      arg::required_text("sha256", "SHA-256 of audiocapbench/metrics.py at that commit")}},
    [](const Args& args) { return Prompt(std::make_shared<const AudioCapBenchJudgePrompt>(args)); }};

}  // namespace

}  // namespace aeval::pipeline
