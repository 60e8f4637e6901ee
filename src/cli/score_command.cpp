#include <fmt/format.h>

#include <cstdio>
#include <fstream>

#include "aeval/error.hpp"
#include "aeval/metrics/catalog.hpp"
#include "registry/registry.hpp"
#include "cli/commands.hpp"
#include "cli/dnsmos_score.hpp"
#include "cli/signal_scorers.hpp"
#include "cli/score_inputs.hpp"

namespace aeval::cli {

namespace {

struct ScoreArgs {
  std::string metric;
  bool list = false;
  std::filesystem::path hypotheses;
  std::vector<std::filesystem::path> references;
  std::string hyp_field = "text", ref_field = "text";
  std::string normalize = "none";
  std::filesystem::path per_sample;
  metrics::TextMetricOptions options;
  double smooth_value = -1;
  SignalScoreArgs signal;
  DnsmosScoreArgs dnsmos;
};

// --normalize NAME: the post-process entry NAME of the registry, applied as a run applies it: to the
// hypotheses, and to the references too unless it is written for answers alone (`apply_to: prediction`).
void normalize(const std::string& name, const GlobalOptions& global, ScoreInput& input) {
  if (name == "none") return;
  const registry::Registry registry(registry_folders(global));
  const pipeline::PostProcess post_process = pipeline::load_post_process(registry, name);
  for (const auto& note : post_process.notes) std::fprintf(stderr, "aeval: note: %s\n", note.c_str());
  // A post-process that reads a sample's fields (choice-letter's options) finds none; its error names the line.
  pipeline::Sample line;
  for (std::size_t i = 0; i < input.hypotheses.size(); ++i) {
    line.id = fmt::format("hypothesis line {}", i + 1);
    input.hypotheses[i] = post_process.apply(input.hypotheses[i], line);
    if (!post_process.references_too) continue;
    line.id = fmt::format("reference line {}", i + 1);
    for (auto& r : input.references[i]) r = post_process.apply(r, line);
  }
}

// A text metric's result, and each per-sample line, repeats its number as `value` (the key of a run's records and of
// Python's Result.value) beside the key its reference gives it (jiwer's "wer", sacreBLEU's "score"); the audio,
// embedding and DNSMOS scorers write `value` where they make their results.
void add_value(nlohmann::json& result, const std::string& key) {
  if (result.is_object() && result.contains(key)) result["value"] = result[key];
}

void write_per_sample(const std::filesystem::path& path, const std::vector<nlohmann::json>& rows) {
  if (path.empty()) return;
  std::ofstream out(path);
  if (!out) throw Error(ErrorCategory::data, path.string() + ": cannot write");
  for (const auto& row : rows) out << row.dump() << '\n';
}

}  // namespace

Action add_score_command(CLI::App& app, const GlobalOptions& global) {
  auto a = std::make_shared<ScoreArgs>();
  CLI::App* score = app.add_subcommand("score", "Score hypotheses against references with one metric");
  score->footer(
      "Inputs are line-aligned text files (one segment per line) or JSONL files whose rows hold\n"
      "the text in a field (--hyp-field/--ref-field; a list of strings gives several references).\n"
      "Repeat --ref for several references per segment. The result is strict JSON on stdout.\n\n"
      "Examples:\n"
      "  aeval score wer --ref refs.txt --hyp hyps.txt --normalize whisper-english\n"
      "  aeval score bleu --ref ref1.txt --ref ref2.txt --hyp sys.txt --tokenize 13a\n"
      "  aeval score meteor --ref caps.jsonl --ref-field captions --hyp preds.jsonl --hyp-field caption\n"
      "  aeval score dnsmos --deg-dir outputs/ --per-sample dnsmos.jsonl\n"
      "  aeval score --list");
  score->add_option("metric", a->metric, "Metric name (see --list)");
  score->add_flag("--list", a->list, "List every metric with one line each");
  score->add_option("--hyp,--deg", a->signal.hypotheses, "Hypotheses / degraded audio / system embeddings (repeatable for audio and .npy)")
      ->check(CLI::ExistingFile);
  score->add_option("--ref", a->references, "References (repeatable)")->check(CLI::ExistingFile);
  score->add_option("--ref-dir", a->signal.reference_dir, "audio, .npy: folder of references")->check(CLI::ExistingDirectory);
  score->add_option("--hyp-dir,--deg-dir", a->signal.hypothesis_dir, "audio, .npy: folder matched to --ref-dir by file name")
      ->check(CLI::ExistingDirectory);
  score->add_option("--pairs", a->signal.pairs, "audio, .npy: a list file of 'reference degraded' paths")->check(CLI::ExistingFile);
  score->add_flag("--trim", a->signal.trim, "audio: cut both signals to the shorter instead of failing");
  score->add_option("--p", a->signal.p, "audiobertscore: power of the p-norm")->capture_default_str();
  score->add_option("--lambda", a->signal.lambda, "audiobertscore: weight of the max-norm term")->capture_default_str();
  score->add_flag("--float64", a->signal.float64, "audiobertscore: exact float64 arithmetic instead of the reference's float32");
  score->add_option("--ref-stats", a->signal.reference_stats, "fad: reference statistics saved earlier (prefix)");
  score->add_option("--save-ref-stats", a->signal.save_reference_stats, "fad: save the reference statistics (prefix)");
  score->add_option("--hyp-field", a->hyp_field, "Field of JSONL hypotheses")->capture_default_str();
  score->add_option("--ref-field", a->ref_field, "Field of JSONL references")->capture_default_str();
  score->add_option("--normalize", a->normalize,
                    "A text post-process of the registry applied as a run applies it: whisper-english, whisper-basic, "
                    "to-simplified, ... (`aeval list post-process`), or none")
      ->capture_default_str();
  score->add_option("--per-sample", a->per_sample, "Also write one JSON line of scores per segment here");
  score->add_option("--tokenize", a->options.bleu.tokenize, "bleu: 13a, intl, zh, char, none")->capture_default_str();
  score->add_option("--smooth-method", a->options.bleu.smooth_method, "bleu: exp, floor, add-k, none")->capture_default_str();
  score->add_option("--smooth-value", a->smooth_value, "bleu: value for floor (0.1) or add-k (1)");
  score->add_option("--max-ngram-order", a->options.bleu.max_ngram_order, "bleu: highest n-gram order")->capture_default_str();
  score->add_flag("--effective-order", a->options.bleu.effective_order, "bleu: skip orders with no n-grams");
  score->add_flag("--lowercase", a->options.bleu.lowercase, "bleu, chrf: lowercase both sides");
  score->add_option("--char-order", a->options.chrf.char_order, "chrf: character n-gram order")->capture_default_str();
  score->add_option("--word-order", a->options.chrf.word_order, "chrf: word n-gram order (2 = chrF++)")->capture_default_str();
  score->add_option("--beta", a->options.chrf.beta, "chrf: recall weight")->capture_default_str();
  score->add_flag("--stem", a->options.stem, "rouge: Porter-stem tokens longer than 3 characters (AudioCapBench does)");
  score->add_flag("--personalized", a->dnsmos.personalized, "dnsmos: the personalized P.835 model (pDNSMOS)");
  score->add_option("--p808-features", a->dnsmos.p808_features,
                    "dnsmos: librosa-0.8.1 (pinned by DNS-Challenge) or librosa-0.9 log-mel for P.808")
      ->capture_default_str();
  score->add_option("--models", a->dnsmos.models, "dnsmos: folder of the official ONNX files (default: the cache)");

  return [a, &global]() {
    if (a->list) {
      for (const auto& m : metrics::text_metrics()) std::printf("%-15s %s (%s)\n", m.name.c_str(), m.summary.c_str(), m.reference.c_str());
      for (const auto& m : metrics::signal_metrics()) std::printf("%-15s %s (%s)\n", m.name.c_str(), m.summary.c_str(), m.reference.c_str());
      return 0;
    }
    std::string renamed;
    const metrics::MetricInfo* metric = metrics::find_metric(a->metric, &renamed);
    if (!metric) {
      std::vector<std::string> names;
      const auto add = [&](const metrics::MetricInfo& m) {
        names.push_back(m.name);
        names.insert(names.end(), m.aliases.begin(), m.aliases.end());
      };
      for (const auto& m : metrics::text_metrics()) add(m);
      for (const auto& m : metrics::signal_metrics()) add(m);
      throw Error(ErrorCategory::config, "unknown metric '" + a->metric + "'" + registry::suggestion_suffix(a->metric, names) +
                                             "; `aeval score --list` shows them all");
    }
    if (!renamed.empty()) std::fprintf(stderr, "aeval: note: %s\n", renamed.c_str());
    a->signal.references = a->references;
    std::vector<nlohmann::json> per_sample;
    nlohmann::json result;
    if (const metrics::TextMetric* text = metrics::find_text_metric(metric->name)) {
      if (a->signal.hypotheses.size() > 1) throw Error(ErrorCategory::config, "text metrics take one --hyp file");
      if (!a->signal.hypotheses.empty()) a->hypotheses = a->signal.hypotheses.front();
      if (a->hypotheses.empty() || a->references.empty())
        throw Error(ErrorCategory::config, "aeval score needs --hyp FILE and at least one --ref FILE");
      if (a->smooth_value >= 0) a->options.bleu.smooth_value = a->smooth_value;
      a->options.chrf.lowercase = a->options.bleu.lowercase;

      ScoreInput input = read_score_input(a->hypotheses, a->references, a->hyp_field, a->ref_field);
      normalize(a->normalize, global, input);
      result = text->score(input, a->options, a->per_sample.empty() ? nullptr : &per_sample);
      result["segments"] = input.hypotheses.size();
      result["normalize"] = a->normalize;
      add_value(result, text->key);
      for (auto& line : per_sample) add_value(line, text->key);
    } else if (metric->input == metrics::MetricInput::audio_alone) {
      a->dnsmos.files = a->signal.hypotheses;
      a->dnsmos.folder = a->signal.hypothesis_dir;
      result = score_dnsmos(a->dnsmos, a->per_sample.empty() ? nullptr : &per_sample);
    } else {
      result = score_signals(metric->name, a->signal, a->per_sample.empty() ? nullptr : &per_sample);
    }
    result["metric"] = metric->name;
    write_per_sample(a->per_sample, per_sample);
    std::printf("%s\n", result.dump(2).c_str());
    return 0;
  };
}

}  // namespace aeval::cli
