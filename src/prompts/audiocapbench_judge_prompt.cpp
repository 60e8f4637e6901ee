// AudioCapBench's judge prompt, read from its publishers' pinned audiocapbench/metrics.py (issue 56): the words of
// evaluate_with_llm_judge's f-string, of its category guidance, of the transcript line and of the reference lines,
// put together per sample as that function puts them together. The file is checked by SHA-256 when it is fetched,
// so each piece is where that commit has it; a file without one is refused naming what is missing.
#include <fmt/format.h>

#include <map>

#include "aeval/error.hpp"
#include "aeval/text/python_values.hpp"
#include "prompts/prompt.hpp"
#include "prompts/python_source.hpp"
#include "registry/args.hpp"

namespace aeval::pipeline {

namespace {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using text::OrderedJson;

constexpr const char* kMetricsFile = "audiocapbench/metrics.py";

class AudioCapBenchJudgePrompt final : public Prompt::EntryForm {
 public:
  explicit AudioCapBenchJudgePrompt(const Args& args) : EntryForm(args.entry()) {
    const PythonSource f(publisher_file(args, kMetricsFile), "AudioCapBench's judge prompt is",
                         "def evaluate_with_llm_judge(");
    // refs_text = "\n".join(f"  - {r}" for r in references)
    std::size_t at = 0;
    joiner_ = f.text_after("refs_text = ", at);
    reference_line_ = f.text_after(".join(", at);
    f.after(" for r in references)", at);
    // category_guidance = {"music": (...), "speech": (...)}.get(category, (...))
    at = f.after("category_guidance = {");
    guidance_ = f.dictionary(at);
    at = f.after(".get(category, ", at);
    default_guidance_ = f.strings(at);
    // if category == "speech" and transcript: category_guidance += f'...{transcript}...'
    at = f.after("if category == \"speech\" and transcript:", at);
    transcript_line_ = f.text_after("category_guidance += ", at);
    // prompt = f"""...{category_guidance}...{refs_text}...{prediction}..."""
    prompt_ = f.text_after("prompt = ", at);
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
