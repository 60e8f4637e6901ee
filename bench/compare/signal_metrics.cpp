// Times aeval's signal and embedding metrics on the real audio and embeddings
// of shared/reference/signal and shared/reference/embedding. Prints
// one line per metric, "name<TAB>milliseconds per call" (median of repeated calls).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>

#include "aeval/audio_io.hpp"
#include "aeval/metrics/embedding.hpp"
#include "aeval/metrics/mcd.hpp"
#include "aeval/metrics/mel_distance.hpp"
#include "aeval/metrics/sdr.hpp"
#include "aeval/metrics/stoi.hpp"
#include "median_time.hpp"

using aeval::bench::median_ms;

namespace {

std::vector<double> load(const std::string& path) {
  const auto a = aeval::decode_audio(path);
  return std::vector<double>(a.samples.begin(), a.samples.end());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: aeval_bench_signal ../shared/reference\n");
    return 2;
  }
  const std::string dir = argv[1];
  const auto clean16 = load(dir + "/signal/audio/jfk_0-5s_16k__clean.wav");
  const auto opus16 = load(dir + "/signal/audio/jfk_0-5s_16k__opus6.wav");
  const auto tempo16 = load(dir + "/signal/audio/jfk_0-5s_16k__tempo_0.9.wav");
  const auto esc = aeval::decode_audio(dir + "/signal/audio/esc_dog_4-182395-A-0_44k__clean.wav");
  const auto gen = aeval::metrics::to_matrix(aeval::read_npy(dir + "/embedding/abs_corr_1212x1212_gen.npy"), "gen");
  const auto ref = aeval::metrics::to_matrix(aeval::read_npy(dir + "/embedding/abs_corr_1212x1212_ref.npy"), "ref");
  const auto a = aeval::read_npy(dir + "/embedding/fd_gauss_d128_n600_A.npy");
  const auto b = aeval::read_npy(dir + "/embedding/fd_gauss_d128_n600_B.npy");
  aeval::metrics::MelSpectrogramOptions mel;
  mel.sample_rate = 16000;
  aeval::metrics::MultiScaleMelOptions ms;
  ms.sample_rate = 16000;
  aeval::metrics::McdOptions exact;
  exact.dtw_radius.reset();

  // Names match bench/compare/signal_metrics_reference.py so the two can be joined.
  double sink = 0;
  const auto row = [](const char* name, double ms) { std::printf("%s\t%.3f\n", name, ms); };
  row("STOI", median_ms([&] { sink += aeval::metrics::stoi(clean16, opus16, 16000).value; }));
  row("eSTOI", median_ms([&] { sink += aeval::metrics::stoi(clean16, opus16, 16000, true).value; }));
  row("SI-SDR", median_ms([&] { sink += aeval::metrics::si_sdr(opus16, clean16); }));
  row("MCD, fastdtw r10 on mel",
      median_ms([&] { sink += aeval::metrics::mel_cepstral_distance(clean16, tempo16, 16000).mcd; }));
  row("MCD, exact DTW",
      median_ms([&] { sink += aeval::metrics::mel_cepstral_distance(clean16, tempo16, 16000, exact).mcd; }));
  row("log-mel L1 (audiocraft default)", median_ms([&] { sink += aeval::metrics::mel_l1_distance(opus16, clean16, mel); }));
  row("multi-scale mel (5 scales)",
      median_ms([&] { sink += aeval::metrics::multiscale_mel_distance(opus16, clean16, ms); }));
  row("resample 44.1k->16k, 4 s (torchaudio)", median_ms([&] {
        sink += aeval::resample(esc, 16000, aeval::Resampler::torchaudio).samples[0];
      }));
  row("resample 44.1k->16k, 4 s (soxr HQ)",
      median_ms([&] { sink += aeval::resample(esc, 16000, aeval::Resampler::soxr_hq).samples[0]; }));
  row("AudioBERTScore 1212x1212, d=768 (f32)",
      median_ms([&] { sink += aeval::metrics::audio_bert_score(gen, ref).f1; }, 3));
  row("Frechet distance, d=128, n=600", median_ms([&] {
        sink += aeval::metrics::frechet_distance(aeval::metrics::embedding_statistics(a, "A"),
                                                 aeval::metrics::embedding_statistics(b, "B"))
                    .distance;
      }));
  std::fprintf(stderr, "checksum %g\n", sink);
  return 0;
}
