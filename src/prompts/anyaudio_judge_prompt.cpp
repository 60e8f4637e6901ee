// AnyAudio-Judge's prompts, read from its publishers' pinned anyaudio_judge/prompts.py (issue 56): the decomposition
// prompt of the sample's subset, the cleaning (hallucination filter) prompt, and the judge's logits and generate
// prompts, each assembled as decompose.py and judge.py send it. A stage is one entry (`stage`); the file is checked by
// SHA-256 when it is fetched, and a file without a piece is refused naming it.
#include <fmt/format.h>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "prompts/prompt.hpp"
#include "prompts/python_source.hpp"

namespace aeval::pipeline {

namespace {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using text::OrderedJson;

constexpr const char* kPromptsFile = "anyaudio_judge/prompts.py";
constexpr const char* kDecomposeFile = "anyaudio_judge/decompose.py";
constexpr const char* kWhat = "AnyAudio-Judge's prompts are";

// A module-level `NAME = """..."""`.
std::string constant(const PythonSource& f, const std::string& name) {
  std::size_t at = 0;
  return f.text_after("\n" + name + " = ", at);
}

std::string text_field(const nlohmann::json& fields, const char* name) {
  return fields.is_object() && fields.contains(name) && fields[name].is_string() ? fields[name].get<std::string>()
                                                                                  : std::string();
}

class AnyAudioJudgePrompt final : public Prompt::EntryForm {
 public:
  explicit AnyAudioJudgePrompt(const Args& args) : EntryForm(args.entry()), stage_(args.text("stage")) {
    const auto file = publisher_file(args, kPromptsFile);
    if (stage_ == "decompose") {
      const PythonSource f(file, kWhat);
      std::size_t at = f.after("\nDECOMPOSE_PROMPTS = ");
      const OrderedJson prompts = f.value(at);
      for (const auto& [subset, c] : prompts.items())
        decompose_[subset] = {c.at("system_prompt").get<std::string>(), c.at("user_prefix").get<std::string>()};
      if (!decompose_.count("mix")) throw Error(ErrorCategory::data, file.string() + ": DECOMPOSE_PROMPTS has no 'mix'");
      default_subset_ = args.text("subset");
      if (!decompose_.count(default_subset_))
        throw Error(ErrorCategory::config, fmt::format("prompt '{}': subset '{}' is not a key of DECOMPOSE_PROMPTS",
                                                       args.entry().name, default_subset_));
      // decompose.py's call_text: `user_content = "/no_think\n" + user_content` (no_think_marker, on for decomposing).
      const PythonSource d(publisher_file(args, kDecomposeFile, "decompose_sha256"), kWhat, "def call_text(");
      std::size_t marker = d.after("if no_think_marker:");
      no_think_ = d.text_after("user_content = ", marker);
      d.after("+ user_content", marker);
    } else if (stage_ == "judge") {
      system_ = constant(PythonSource(file, kWhat), "JUDGE_LOGITS_SYSTEM_PROMPT");
      const PythonSource f(file, kWhat, "def build_logits_user_text(");
      std::size_t at = f.after("if dim:");
      item_lines_ = {f.text_after("return ", at)};
      plain_line_ = f.text_after("return ", at);
    } else {
      const bool clean = stage_ == "clean";
      system_ = constant(PythonSource(file, kWhat), clean ? "CLEAN_SYSTEM_PROMPT" : "JUDGE_GENERATE_SYSTEM_PROMPT");
      read_lines_builder(PythonSource(file, kWhat, clean ? "def build_clean_user_text(" : "def build_generate_user_text("));
    }
  }

  RenderedPrompt render(const Sample& sample) const override {
    const nlohmann::json& fields = sample.fields;
    const std::string text = text_field(fields, "text");
    RenderedPrompt r;
    // Lists are built by push_back: a braced list of one json value is the value itself to Clang, a list to GCC.
    const auto message = [](const char* role, nlohmann::json parts) {
      return nlohmann::json{{"role", role}, {"content", std::move(parts)}};
    };
    const auto text_parts = [](const std::string& t) {
      nlohmann::json parts = nlohmann::json::array();
      parts.push_back({{"type", "text"}, {"text", t}});
      return parts;
    };
    if (stage_ == "decompose") {
      // The sample's subset (AnyAudio-Judge Bench's speech_gen is decomposed as speech), else the entry's.
      std::string subset = text_field(fields, "subset");
      if (subset.size() > 4 && subset.compare(subset.size() - 4, 4, "_gen") == 0) subset.resize(subset.size() - 4);
      const auto found = decompose_.find(subset);
      const auto& [system, prefix] = (found != decompose_.end() ? found : decompose_.find(default_subset_))->second;
      r.shape = {message("system", text_parts(system)), message("user", text_parts(no_think_ + prefix + text))};
      return r;
    }
    std::string user;
    const nlohmann::json items = fields.is_object() && fields.contains("items") ? fields["items"] : nlohmann::json::array();
    if (stage_ == "judge") {
      const std::string dimension = text_field(fields, "dimension"), question = text_field(fields, "question");
      user = text::python_format(dimension.empty() ? plain_line_ : item_lines_[0],
                                 OrderedJson{{"dim", dimension}, {"q", question}});
    } else if (stage_ == "clean") {
      std::vector<std::string> lines;
      for (const auto& line : lines_) lines.push_back(text::python_format(line, OrderedJson{{"caption", text}}));
      for (std::size_t i = 0; i < items.size(); ++i) {
        lines.push_back(text::python_format(item_lines_[0], OrderedJson{{"i", i}, {"q", text_field(items[i], "question")}}));
        lines.push_back(text::python_format(item_lines_[1], OrderedJson{{"b", text_field(items[i], "basis")}}));
      }
      user = fmt::format("{}", fmt::join(lines, joiner_));
    } else {  // generate
      std::vector<std::string> lines;
      for (const auto& line : lines_) lines.push_back(text::python_format(line, OrderedJson{{"len(rubric)", items.size()}}));
      for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string dimension = text_field(items[i], "dimension");
        lines.push_back(text::python_format(dimension.empty() ? item_lines_[1] : item_lines_[0],
                                            OrderedJson{{"idx", i}, {"dim", dimension}, {"q", text_field(items[i], "question")}}));
      }
      user = fmt::format("{}", fmt::join(lines, joiner_));
    }
    nlohmann::json user_parts = nlohmann::json::array();
    if (stage_ == "judge" || stage_ == "generate") user_parts.push_back(r.audio_part(sample.audio));
    user_parts.push_back(text_parts(user)[0]);
    r.shape = {message("system", text_parts(system_)), message("user", user_parts)};
    return r;
  }

 private:
  // build_clean_user_text and build_generate_user_text: `lines = [...]`, two `lines.append(...)` (an item's lines,
  // or its line with and without a dimension) and `return "<joiner>".join(lines)`.
  void read_lines_builder(const PythonSource& f) {
    std::size_t at = f.after("lines = ");
    lines_ = f.string_list(at);
    item_lines_ = {f.text_after("lines.append(", at), f.text_after("lines.append(", at)};
    joiner_ = f.text_after("return ", at);
    f.after(".join(lines)", at);
  }

  std::string stage_, system_, joiner_, no_think_, default_subset_, plain_line_;
  std::vector<std::string> lines_, item_lines_;
  std::map<std::string, std::pair<std::string, std::string>> decompose_;  // subset → system prompt, user prefix
};

const PromptClasses::Registration kAnyAudioJudgeClass{
    {Kind::prompt, "anyaudio_judge",
     "AnyAudio-Judge's prompts as its publishers' anyaudio_judge/prompts.py states them and decompose.py and judge.py "
     "send them, read from their release at its commit: one stage an entry",
     {arg::required_text("release", "where the release's files are, at its commit (raw files of the repository)"),
      arg::required_text("sha256", "SHA-256 of anyaudio_judge/prompts.py at that commit"),
      arg::choice("stage", "judge", {"decompose", "clean", "judge", "generate"},
                "decompose (the subset's decomposition prompt; the text), clean (the hallucination filter; the text "
                "and its items), judge (logits mode, one item: dimension and question), generate (every item)"),
      arg::text("subset", "mix", "decompose: the DECOMPOSE_PROMPTS key for samples whose subset field names none"),
      arg::text("decompose_sha256", "", "decompose: SHA-256 of anyaudio_judge/decompose.py (its /no_think marker)")}},
    [](const Args& args) { return Prompt(std::make_shared<const AnyAudioJudgePrompt>(args)); }};

}  // namespace

}  // namespace aeval::pipeline
