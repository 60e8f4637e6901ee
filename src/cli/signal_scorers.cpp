#include "cli/signal_scorers.hpp"

#include <algorithm>
#include <fstream>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "aeval/metrics/audio_pair.hpp"
#include "aeval/metrics/embedding.hpp"
#include "aeval/metrics/embedding_pair.hpp"
#include "aeval/npy.hpp"
#include "aeval/text/unicode.hpp"
#include "util/numpy_sum.hpp"

namespace aeval::cli {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// The file pairs to score: --ref/--hyp lists, two folders matched by name, or a list file.
std::vector<std::pair<fs::path, fs::path>> pairs_of(const SignalScoreArgs& a, const std::string& extension) {
  std::vector<std::pair<fs::path, fs::path>> pairs;
  if (!a.reference_dir.empty() || !a.hypothesis_dir.empty()) {
    if (a.reference_dir.empty() || a.hypothesis_dir.empty())
      throw Error(ErrorCategory::config, "directory mode needs both --ref-dir and --deg-dir (or --hyp-dir)");
    std::vector<fs::path> names;
    for (const auto& e : fs::directory_iterator(a.reference_dir))
      if (e.is_regular_file() && (extension.empty() || e.path().extension() == extension)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    for (const auto& name : names) {
      if (!fs::exists(a.hypothesis_dir / name))
        throw Error(ErrorCategory::data, (a.hypothesis_dir / name).string() + " is missing (matched by name to " +
                                             (a.reference_dir / name).string() + ")");
      pairs.emplace_back(a.reference_dir / name, a.hypothesis_dir / name);
    }
  } else if (!a.pairs.empty()) {
    std::ifstream in(a.pairs);
    if (!in) throw Error(ErrorCategory::data, a.pairs.string() + ": cannot open");
    std::string line;
    for (std::size_t n = 1; std::getline(in, line); ++n) {
      const auto fields = text::split_whitespace(line);
      if (fields.empty()) continue;
      if (fields.size() != 2)
        throw Error(ErrorCategory::data, a.pairs.string() + ":" + std::to_string(n) + ": expected 'reference degraded'");
      const fs::path base = a.pairs.parent_path();
      const auto resolve = [&](const fs::path& p) { return p.is_absolute() ? p : base / p; };
      pairs.emplace_back(resolve(fields[0]), resolve(fields[1]));
    }
  } else {
    if (a.references.size() != a.hypotheses.size())
      throw Error(ErrorCategory::config, std::to_string(a.references.size()) + " --ref files but " +
                                             std::to_string(a.hypotheses.size()) + " --deg/--hyp files");
    for (std::size_t i = 0; i < a.references.size(); ++i) pairs.emplace_back(a.references[i], a.hypotheses[i]);
  }
  if (pairs.empty()) throw Error(ErrorCategory::config, "no files to score (give --ref/--deg, --ref-dir/--deg-dir or --pairs)");
  return pairs;
}

json score_audio_pair(const std::string& metric, const fs::path& ref_path, const fs::path& deg_path, bool trim) {
  metrics::AudioPairOptions options;
  options.trim = trim;
  options.how_to_trim = "--trim";
  const auto r = metrics::score_audio_pair(metric, to_mono(decode_audio(ref_path)), to_mono(decode_audio(deg_path)),
                                           options, ref_path.string(), deg_path.string());
  json out{{"reference", ref_path.string()}, {"degraded", deg_path.string()}, {"sample_rate", r.sample_rate},
           {"score", r.value}, {"value", r.value}};
  if (r.penalty) out["penalty"] = *r.penalty;
  if (!r.notes.empty()) out["notes"] = r.notes;
  return out;
}

// All rows of every .npy file of a folder (or one file), stacked.
NpyArray stacked_embeddings(const fs::path& path) {
  std::vector<fs::path> files;
  if (fs::is_directory(path)) {
    for (const auto& e : fs::directory_iterator(path))
      if (e.path().extension() == ".npy") files.push_back(e.path());
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  if (files.empty()) throw Error(ErrorCategory::data, path.string() + ": no .npy files");
  NpyArray all;
  for (const auto& f : files) {
    NpyArray a = read_npy(f);
    const std::size_t cols = a.shape.size() == 2 ? a.shape[1] : a.values.size();
    if (all.shape.empty()) {
      all.shape = {0, cols};
      all.dtype = a.dtype;
    }
    if (cols != all.shape[1])
      throw Error(ErrorCategory::data, f.string() + ": dimension " + std::to_string(cols) + " differs from " +
                                           std::to_string(all.shape[1]) + " of the other files");
    if (a.dtype != all.dtype) all.dtype = "f8";
    all.shape[0] += a.values.size() / cols;
    all.values.insert(all.values.end(), a.values.begin(), a.values.end());
  }
  return all;
}

// The AudioBertScoreOptions a metric reads, as the command was given them.
json parameter_value(const std::string& parameter, const SignalScoreArgs& a) {
  if (parameter == "p") return a.p;
  if (parameter == "lambda") return a.lambda;
  return a.float64 ? "float64" : "float32";  // arithmetic
}

}  // namespace

json score_signals(const std::string& metric, const SignalScoreArgs& a, std::vector<json>* per_sample) {
  const metrics::EmbeddingMetric* embedding = metrics::find_embedding_metric(metric);
  if (embedding && embedding->sets) {
    if (a.hypotheses.size() != 1 && a.hypothesis_dir.empty())
      throw Error(ErrorCategory::config, metric + " needs the system's embeddings: --hyp-dir DIR (or --hyp FILE)");
    const auto hyp = metrics::embedding_statistics(
        stacked_embeddings(a.hypothesis_dir.empty() ? a.hypotheses[0] : a.hypothesis_dir), "hypothesis embeddings");
    metrics::EmbeddingStatistics ref;
    if (!a.reference_stats.empty()) {
      ref = metrics::load_statistics(a.reference_stats);
    } else {
      if (a.references.size() != 1 && a.reference_dir.empty())
        throw Error(ErrorCategory::config,
                    metric + " needs reference embeddings: --ref-dir DIR, --ref FILE or --ref-stats PREFIX");
      ref = metrics::embedding_statistics(stacked_embeddings(a.reference_dir.empty() ? a.references[0] : a.reference_dir),
                                          "reference embeddings");
    }
    if (!a.save_reference_stats.empty()) metrics::save_statistics(ref, a.save_reference_stats);
    const auto r = embedding->sets(ref, hyp);
    return {{metric, r.distance}, {"value", r.distance}, {"mean_term", r.mean_term}, {"trace_reference", r.trace_a},
            {"trace_hypothesis", r.trace_b}, {"trace_sqrt", r.trace_sqrt}, {"reference_count", ref.count},
            {"hypothesis_count", hyp.count}, {"warnings", r.warnings}};
  }

  const bool embeddings = embedding != nullptr;
  const auto pairs = pairs_of(a, embeddings ? ".npy" : "");
  metrics::AudioBertScoreOptions o;
  o.p = a.p;
  o.lambda = a.lambda;
  o.arithmetic = a.float64 ? metrics::Arithmetic::float64 : metrics::Arithmetic::float32;
  std::vector<double> scores;
  json failures = json::array();
  for (const auto& [ref, hyp] : pairs) {
    json one;
    if (embeddings) {
      const auto s = metrics::score_embedding_pair(metric, metrics::to_matrix(read_npy(hyp), hyp.string()),
                                                   metrics::to_matrix(read_npy(ref), ref.string()), o);
      one = {{"reference", ref.string()}, {"hypothesis", hyp.string()}};
      if (s.precision) one.update({{"precision", *s.precision}, {"recall", *s.recall}, {"f1", s.value}});
      if (!s.rows.empty()) one["rows"] = s.rows;
      one["score"] = one["value"] = s.value;
    } else {
      one = score_audio_pair(metric, ref, hyp, a.trim);
    }
    scores.push_back(one["score"].get<double>());
    if (per_sample) per_sample->push_back(one);
  }
  const double mean = aeval::detail::numpy_mean(scores.data(), scores.size());
  json out{{"score", mean}, {"value", mean}, {"files", scores.size()}};
  if (embedding)
    for (const auto& parameter : embedding->parameters) out[parameter] = parameter_value(parameter, a);
  return out;
}

}  // namespace aeval::cli
