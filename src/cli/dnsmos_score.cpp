#include "cli/dnsmos_score.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "dnsmos/dnsmos.hpp"
#include "models/dnsmos_models.hpp"

namespace aeval::cli {

namespace {

const std::set<std::string> kAudioExtensions = {".wav", ".flac", ".ogg", ".opus", ".mp3", ".g722", ".m4a"};

std::vector<std::filesystem::path> inputs(const DnsmosScoreArgs& args) {
  std::vector<std::filesystem::path> files = args.files;
  if (!args.folder.empty()) {
    std::vector<std::filesystem::path> found;
    for (const auto& e : std::filesystem::directory_iterator(args.folder)) {
      std::string ext = e.path().extension().string();
      std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
      if (e.is_regular_file() && kAudioExtensions.count(ext)) found.push_back(e.path());
    }
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  if (files.empty()) throw Error(ErrorCategory::config, "aeval score dnsmos needs --deg FILE (repeatable) or --deg-dir DIR");
  return files;
}

}  // namespace

nlohmann::json score_dnsmos(const DnsmosScoreArgs& args, std::vector<nlohmann::json>* per_sample) {
  const auto features = dnsmos::p808_features_named(args.p808_features);
  if (!features) throw Error(ErrorCategory::config, "--p808-features is librosa-0.8.1 (the pinned default) or librosa-0.9");
  dnsmos::Options options;
  options.p835 = args.personalized ? dnsmos::P835Model::personalized : dnsmos::P835Model::regular;
  options.p808_features = *features;
  const auto models = models::dnsmos_models_dir(args.models);
  const dnsmos::Scorer scorer(models, options);

  double sums[4] = {0, 0, 0, 0};
  std::size_t scored = 0;
  nlohmann::json failed = nlohmann::json::array();
  for (const auto& file : inputs(args)) {
    nlohmann::json row = {{"file", file.string()}};
    try {
      const Audio mono = to_mono(decode_audio(file));
      const std::vector<double> samples(mono.samples.begin(), mono.samples.end());
      const auto c = scorer.score(samples, mono.sample_rate);
      row.update(dnsmos::clip_json(c));
      row["sample_rate"] = mono.sample_rate;
      row["value"] = c.ovrl;
      const double values[4] = {c.sig, c.bak, c.ovrl, c.p808_mos};
      for (int k = 0; k < 4; ++k) sums[k] += values[k];
      ++scored;
    } catch (const Error& e) {  // one bad file fails alone
      row["error"] = e.what();
      failed.push_back({{"file", file.string()}, {"error", e.what()}});
    }
    if (per_sample) per_sample->push_back(row);
  }
  if (scored == 0) throw Error(ErrorCategory::audio, fmt::format("no file could be scored: {}", failed.dump()));
  nlohmann::json result = {{"files", scored},
                           {"SIG", sums[0] / double(scored)},
                           {"BAK", sums[1] / double(scored)},
                           {"OVRL", sums[2] / double(scored)},
                           {"value", sums[2] / double(scored)},
                           {"P808_MOS", sums[3] / double(scored)},
                           {"p835", args.personalized ? "personalized" : "regular"},
                           {"p808_features", args.p808_features},
                           {"models", models.string()},
                           {"reference", "microsoft/DNS-Challenge DNSMOS/dnsmos_local.py @ 591184a"}};
  if (!failed.empty()) result["failed"] = failed;
  return result;
}

}  // namespace aeval::cli
