// UltraEval-Audio's NaiveWER (audio_evals/evaluator/wer.py at 9b69da6): jiwer's WER of str(answer) against
// str(label), in percent, after wer.py's process_one, a copy of Seed-TTS-Eval's (uea_tts_text.hpp) for the
// two languages NaiveWER takes, which for zh spaces out whitespace characters too.
#include "aeval/text/python_values.hpp"
#include "post_process/post_process.hpp"
#include "uea/uea_evaluator.hpp"
#include "uea/uea_tts_text.hpp"

namespace aeval::pipeline {
namespace {

using Value = UeaEvaluator::Value;

const EvaluatorClasses::Registration kNaiveWer{
    {registry::Kind::evaluator, "uea-naive-wer",
     "UltraEval-Audio's NaiveWER: jiwer's WER of the answer against the label in percent (wer%), punctuation "
     "removed as Seed-TTS-Eval does, English lowercased, Chinese by characters",
     {registry::arg::choice("lang", "en", {"en", "zh"}, "en (words, lowercased) or zh (characters)"),
      label_field_arg()},
     {},
     {registry::UeaClass{"audio_evals.evaluator.wer.NaiveWER"}}},
    [](const registry::Args& args, const registry::Registry& registry, const std::shared_ptr<ScoringModels>& scoring) {
      const std::string lang = args.text("lang");
      const PostProcess punctuation = load_post_process(registry, "seed-tts-punctuation", scoring);
      return uea_evaluator(args, [=](const Value& pred, const Value& label, const nlohmann::json&) -> Value {
        const SeedTtsTexts texts =
            seed_tts_texts(text::python_str(pred), text::python_str(label), lang, punctuation, true);
        return {{"wer%", jiwer_pair_wer(texts.truth, texts.hypo) * 100}};
      });
    }};

}  // namespace
}  // namespace aeval::pipeline
