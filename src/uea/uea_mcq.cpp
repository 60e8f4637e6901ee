// UltraEval-Audio's MCQ (audio_evals/evaluator/mcq.py at 9b69da6; VoiceBench's multiple-choice sets): the
// option, A to D, an answer names, found by UEA's phrase templates in their order (for each, options a to d),
// then the answer being the option alone or the option and a punctuation mark, then three phrases of its
// own; no option found is extract_fail 1 and pred None. With ignore_case (the default) the answer and
// label are lowercased (Python's str.lower), and the templates, all lowercase, only then find uppercase
// options; the label's case never matters to match.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "aeval/text/python_values.hpp"
#include "aeval/text/unicode.hpp"
#include "uea/uea_evaluator.hpp"

namespace aeval::pipeline {
namespace {

using Value = UeaEvaluator::Value;

// mcq.py's templates, in its order (one repeats); [CHOICE] stands for the option.
constexpr const char* kTemplates[] = {
    "答案是[CHOICE]", "答案是:[CHOICE]", "答案是：[CHOICE]", "答案是 [CHOICE]", "答案是选项[CHOICE]", "答案应该是[CHOICE]",
    "答案应该是 [CHOICE]", "答案就是选项[CHOICE]", "答案是'[CHOICE]", "是[CHOICE]：", "答案选[CHOICE]", "[CHOICE]是正确",
    "选项[CHOICE]是最合适的", "answer is: **[CHOICE]", "answer is **[CHOICE]", "the answer to the question is: **[CHOICE]",
    "the answer to the multiple-choice question is **[CHOICE]", "the answer is '[CHOICE]'",
    "[CHOICE] is the best answer", "the answer is [CHOICE]", "the correct answer is [CHOICE]",
    "would select [CHOICE]", "would choose [CHOICE]", "would select option [CHOICE]", "would choose option [CHOICE]",
    "is \"[CHOICE]\"", "is \"[CHOICE].", "is: **[CHOICE])", "is **[CHOICE],", "is **[CHOICE]:", "is **[CHOICE])",
    "is: **[CHOICE].", "is: **[CHOICE]:", "is **[CHOICE].", "be **[CHOICE],", "is: **[CHOICE]**",
    "is therefore option **[CHOICE]:", "is: \n\n**[CHOICE])", "as **[CHOICE]:", "be **[CHOICE])", "be **[CHOICE]:",
    "is: \n\n**[CHOICE]**", "suggests **[CHOICE])", "be option **[CHOICE]:", "with **[CHOICE])",
    "is typically \"[CHOICE])", "be to **[CHOICE])", "is: \n\n[CHOICE])", "is likely to be: **[CHOICE].",
    "is **[CHOICE] (", "is option **[CHOICE]**", "is likely **[CHOICE]**", "is:\n**[CHOICE].", "is:\n\n**[CHOICE].",
    "would be [CHOICE]", "would be option [CHOICE]", "would be ([CHOICE])", "would be option ([CHOICE])",
    "is [CHOICE],", "is typically [CHOICE],", "is typically [CHOICE].", "i'd say [CHOICE].", "option [CHOICE].",
    "option [CHOICE]:", "option [CHOICE],", "the answer is:\n**[CHOICE]", "is [CHOICE]:", "is [CHOICE].",
    "is [CHOICE],", "is: [CHOICE].", "is ([CHOICE])", "is:\n**[CHOICE])", "is likely **[CHOICE]:",
    "is the **[CHOICE])", ":\n[CHOICE].", ":\n[CHOICE])", ":\n[CHOICE],", ": \n[CHOICE].", ":  \n[CHOICE].",
    ":\n\n[CHOICE].", ":\n\n[CHOICE])", "is most likely **[CHOICE]:", ":\n\n[CHOICE],", ": \n\n[CHOICE].",
    "is option [CHOICE],", "([CHOICE]) would be", "is ([CHOICE]).", "is [CHOICE])", "is: [CHOICE])",
    "is:\n\n[CHOICE]:", "is: **[CHOICE],", "(option [CHOICE])", "answer is ([CHOICE])", "select option \"[CHOICE]\"",
    "is: [CHOICE]", "is typically **[CHOICE],", "is **[CHOICE]**", "is likely '[CHOICE]'", "is option '[CHOICE]'",
    "is:\n**[CHOICE]:", "is \\( \\boxed{[CHOICE] ", "would be '[CHOICE]'", "is the **[CHOICE]** ",
    "question is [CHOICE] (", "is:\n\n**[CHOICE])", "closest to option **[CHOICE]**", "is most likely **[CHOICE])",
    "the answer to the question is '[CHOICE]'", "question is **[CHOICE]**", "known as '[CHOICE]'", "is '[CHOICE])",
    "is typically **[CHOICE]:", "is \\( \\boxed{\\text{[CHOICE]}} \\)", "is \\( \\text{[CHOICE]) }",
    "is \\( \\text{[CHOICE]} \\)", "is \\( \\text{[CHOICE]:", "is \\( \\text{[CHOICE])", "is \\(\\text{[CHOICE].",
    "is:\n\n**[CHOICE]", "is \\( \\text{[CHOICE].}", "is \\( \\text{[CHOICE].", "is \\( \\boxed{[CHOICE]}",
    "is:\n\\[ \\boxed{\\text{[CHOICE]}}", "is:\n\\[ \\text{[CHOICE])", "is:\n\n\\[ \\text{[CHOICE])",
    "is \\( \\textbf{[CHOICE])", "is \\( \\text{[CHOICE]}", "is: \\( \\text{[CHOICE].",
    "corresponds to:\n- **[CHOICE]:", "would be: **[CHOICE]**.", "is \\( [CHOICE] \\)", "is:\n**[CHOICE] ",
    "corresponds to option **[CHOICE]**", "be **[CHOICE]**", "be: \n\n[CHOICE])", "is:\n\\[ \\boxed{[CHOICE]}",
    "is:  \n**[CHOICE]:", "is: \\( \\text{[CHOICE])", "is likely: **[CHOICE],", "is } \\mathbf{[CHOICE].",
    "is \\( \\boxed{[CHOICE])", "is \\( \\textbf{[CHOICE]}", "is \\([CHOICE]\\)", "is:\n  \n**[CHOICE]:",
    "is option **[CHOICE] ", "is:\n\\( \\textbf{[CHOICE].", "is \\( \\mathbf{[CHOICE]}", "was option **[CHOICE]**",
    "is likely \"[CHOICE])", "option **[CHOICE]:", "is \"[CHOICE])", "is most likely **[CHOICE],",
    "is often **[CHOICE]:", "is:  \n[CHOICE])", " [CHOICE].", " [CHOICE],", " [CHOICE]:", " [CHOICE])",
    "**[CHOICE].", "**[CHOICE])", "\"[CHOICE].", "\"[CHOICE],", "\"[CHOICE]:", "([CHOICE])", "\"[CHOICE]\"",
};

constexpr char kOptions[] = {'a', 'b', 'c', 'd'};

// Each template with each option in place of [CHOICE], in the order they are tried.
const std::vector<std::array<std::string, 4>>& phrases() {
  static const std::vector<std::array<std::string, 4>> all = [] {
    std::vector<std::array<std::string, 4>> out;
    for (const std::string t : kTemplates) {
      const std::size_t at = t.find("[CHOICE]");
      auto& four = out.emplace_back();
      for (std::size_t k = 0; k < 4; ++k) four[k] = t.substr(0, at) + kOptions[k] + t.substr(at + 8);
    }
    return out;
  }();
  return all;
}

// _extract_answer: the option ("A" to "D"), or none.
std::optional<std::string> extract_option(std::string response, bool ignore_case) {
  if (ignore_case) response = text::lower(response);
  if (response.starts_with("<1>") || response.starts_with("<2>") || response.starts_with("<3>"))
    response = text::strip(response.substr(3));
  const auto found = [](char option) { return std::string(1, char(option - 'a' + 'A')); };
  for (const auto& four : phrases())
    for (std::size_t k = 0; k < 4; ++k)
      if (response.find(four[k]) != std::string::npos) return found(kOptions[k]);
  for (const char option : kOptions) {
    if (response == std::string(1, option)) return found(option);
    for (const char mark : {'.', ',', ':', ')'})
      if (response.starts_with(std::string{option, mark})) return found(option);
  }
  for (const char* phrase :
       {"would be a.", "would be \"a.", "the best option from the given choices would be a scorpion (a)"})
    if (response.find(phrase) != std::string::npos) return "A";
  return std::nullopt;
}

const EvaluatorClasses::Registration kMcq{
    {registry::Kind::evaluator, "uea-mcq",
     "UltraEval-Audio's MCQ (VoiceBench): the option A-D the answer names, by UEA's phrase templates, against the "
     "label (match, extract_fail)",
     {registry::arg::boolean("ignore_case", true, "lowercase the answer and label first, as UEA does by default"),
      label_field_arg()},
     {},
     {registry::UeaClass{"audio_evals.evaluator.mcq.MCQ"}}},
    [](const registry::Args& args, const registry::Registry&, const std::shared_ptr<ScoringModels>&) {
      const bool ignore_case = args.boolean("ignore_case");
      return uea_evaluator(args, [ignore_case](const Value& pred, const Value& label_value,
                                               const nlohmann::json&) -> Value {
        std::string answer = text::python_str(pred), label = text::python_str(label_value);
        if (ignore_case) answer = text::lower(answer), label = text::lower(label);
        const std::optional<std::string> option = extract_option(answer, ignore_case);
        if (!option) return {{"match", 0}, {"pred", nullptr}, {"ref", label}, {"extract_fail", 1}};
        return {{"match", text::lower(*option) == text::lower(label) ? 1 : 0}, {"pred", *option}, {"ref", label},
                {"extract_fail", 0}};
      });
    }};

}  // namespace
}  // namespace aeval::pipeline
