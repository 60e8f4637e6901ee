#include "uea/uea_task_metrics.hpp"

#include <algorithm>

#include "uea/uea_tts_text.hpp"

namespace aeval::pipeline {

namespace {

using registry::Kind;

void add(std::vector<std::string>& out, const std::string& metric) {
  if (!metric.empty() && std::find(out.begin(), out.end(), metric) == out.end()) out.push_back(metric);
}

std::string text_arg(const registry::Entry& e, const char* key) {
  return e.args[key] && e.args[key].IsScalar() ? e.args[key].Scalar() : "";
}

// UEA's error rates count characters in Chinese (its tokenizer splits them) and where its TTS scorers do.
std::string error_rate(const std::string& lang) {
  return lang == "zh" || lang == "yue" || seed_tts_counts_characters(lang) ? "CER" : "WER";
}

// What one of UEA's evaluators scores each sample by; its entry name when its class says nothing more.
void evaluator_metrics(const registry::Registry& registry, const std::string& name, std::vector<std::string>& out) {
  if (!registry.contains(Kind::evaluator, name)) return add(out, name);
  const registry::Entry& e = registry.get(Kind::evaluator, name);
  const std::string& id = e.class_id;
  if (id == "uea-ensemble") {
    for (const auto& component : e.args["components"]) evaluator_metrics(registry, component.Scalar(), out);
  } else if (id == "uea-wer" || id == "uea-seed-tts-asr-wer" || id == "uea-long-tts-asr-wer") {
    add(out, error_rate(text_arg(e, "lang")));
  } else if (id == "uea-cer") {
    add(out, "CER");
  } else if (id == "uea-bleu") {
    add(out, "BLEU");
  } else if (id == "uea-em" || id == "uea-exist-match" || id == "uea-prefix-match" || id == "uea-qa-exist-match" ||
             id == "uea-choice-strings-match") {
    add(out, "accuracy");
  } else if (id == "uea-simo" || id == "uea-cv3-speaker-sim") {
    add(out, "speaker similarity");
  } else if (id == "uea-dnsmos") {
    add(out, "DNSMOS");
  } else if (id == "uea-chatbot-judge" || id == "uea-air-chat-judge") {
    add(out, "judge score");
  } else {
    add(out, name);
  }
}

// What one of UEA's aggregations reports; one that averages each key the evaluator gives reports the evaluator's.
void aggregation_metrics(const registry::Registry& registry, const std::string& name, const TaskSpec& spec,
                         std::vector<std::string>& out) {
  const registry::Entry& e = registry.get(Kind::aggregator, name);
  const std::string& id = e.class_id;
  if (id == "uea-practice-wer") add(out, error_rate(text_arg(e, "lang")));
  else if (id == "uea-jiwer-wer") add(out, "WER");
  else if (id == "uea-jiwer-cer") add(out, "CER");
  else if (id == "uea-bleu") add(out, "BLEU");
  else if (id == "uea-accuracy") add(out, "accuracy");
  else if (id == "uea-air-chat") add(out, "judge win rate against the reference");
  else if (id == "uea-instruct-tts-eval") add(out, "judged instruction following (APS, DSD, RP)");
  else if (id == "uea-dump") return;
  else if (id == "uea-python-agg" && text_arg(e, "uea_class") == "audio_evals.agg.base.Coco")
    add(out, "BLEU-1 to 4, METEOR, ROUGE-L, CIDEr, SPICE, SPIDEr");
  else if (id == "uea-mean" || id == "uea-weighted-average") {
    for (const auto& evaluator : spec.evaluators)
      if (std::find(spec.beside_uea.begin(), spec.beside_uea.end(), evaluator) == spec.beside_uea.end())
        evaluator_metrics(registry, evaluator, out);
  } else {
    add(out, name);
  }
}

}  // namespace

std::vector<std::string> uea_task_metrics(const registry::Registry& registry, const TaskSpec& bound) {
  std::vector<std::string> out;
  for (const auto& name : bound.aggregators)
    if (registry.contains(Kind::aggregator, name)) aggregation_metrics(registry, name, bound, out);
  return out;
}

}  // namespace aeval::pipeline
