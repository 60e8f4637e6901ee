#pragma once
// DNSMOS, natively: P.835 (SIG, BAK, OVRL, raw and calibrated; the regular or the personalized
// model) and P.808 (MOS), computed as Microsoft's DNSMOS/dnsmos_local.py does
// (microsoft/DNS-Challenge @ 591184a9fcb2cbdec02520fed81a32bbbf9d73ff) with the official ONNX
// models, whose weights are read from the files themselves. The pipeline, step by step, and its
// golden vectors: shared/reference/dnsmos/README.md.
//
// The script's quirks are reproduced by default and can be switched off:
// * a clip shorter than a window (9.01 s) is doubled (np.append(audio, audio)) until it is at
//   least that long, so a 0.41 s clip becomes 32 copies and is scored on 3 windows;
// * window ends are int((idx + 9.01)·16000) in float64, one sample short for idx 7…23 and
//   119…122, and such windows are skipped: a 17–24 s clip is scored on windows 0–6 only.
#include <array>
#include <cstddef>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <span>
#include <string_view>
#include <vector>

namespace aeval::dnsmos {

inline constexpr int kSampleRate = 16000;
inline constexpr std::size_t kWindowSamples = 144160;  // int(9.01·16000)
inline constexpr std::size_t kP808Frames = 900, kP808Bands = 120;
inline constexpr float kNotRunF = std::numeric_limits<float>::quiet_NaN();
inline constexpr double kNotRun = std::numeric_limits<double>::quiet_NaN();

enum class P835Model {
  regular,       // sig_bak_ovr.onnx
  personalized,  // psig_bak_ovr.onnx (pDNSMOS: interfering talkers penalised)
  none,
};

// The P.808 model's log-mel input. DNS-Challenge pins librosa 0.8.1; librosa 0.9 changed the STFT's
// padding (reflect → zeros) and, for the odd n_fft of 321, the filterbank's frequency grid
// (linspace → rfftfreq). The two differ by up to 0.25 MOS per clip.
enum class P808Features { librosa_0_8, librosa_0_9 };
// The names options and arguments give them: "librosa-0.8.1", "librosa-0.9"; nothing for another name.
std::optional<P808Features> p808_features_named(std::string_view name);

enum class ShortClips {
  doubled,              // the script: doubled until at least one window long
  repeated_to_window,   // repeated and cut to exactly one window
  zero_padded,          // zeros appended up to one window (UltraEval-Audio's DNSMOS)
};

enum class WindowEnds {
  float_rounded,  // the script: int((idx + 9.01)·16000); windows it leaves short are skipped
  exact,          // idx·16000 + 144160: every hop is scored
};

// Which kernels run the networks: the widest the CPU has, or one named (for tests; aeval::Error
// when the CPU lacks it). Results differ between them by float32 rounding only.
enum class Simd { best, avx512, avx2, portable };

struct Options {
  P835Model p835 = P835Model::regular;
  bool p808 = true;
  P808Features p808_features = P808Features::librosa_0_8;
  ShortClips short_clips = ShortClips::doubled;
  WindowEnds window_ends = WindowEnds::float_rounded;
  // Only the clip's first window is scored, whatever its length (UltraEval-Audio's DNSMOS).
  bool first_window_only = false;
  // Refuse model files whose SHA-256 differs from the official one. Off, any file with the
  // official architecture is accepted (its graph is checked either way).
  bool require_official_weights = true;
  Simd simd = Simd::best;
};

// One scored window. Raw values are the networks' float32 outputs; calibrated values are the
// script's polynomials evaluated in float64. Fields of a model not run are NaN.
struct WindowScores {
  std::size_t hop = 0;             // idx of the script's loop
  std::size_t start = 0, end = 0;  // sample range in the repeated 16 kHz signal
  float sig_raw = kNotRunF, bak_raw = kNotRunF, ovrl_raw = kNotRunF;
  double sig = kNotRun, bak = kNotRun, ovrl = kNotRun;
  float p808_mos = kNotRunF;
};

// Means over the scored windows as np.mean takes them: float32 for the raw values and P.808
// (as the script's lists hold float32), float64 for the calibrated ones.
struct ClipScores {
  std::size_t samples_16k = 0;       // the 16 kHz signal, before repetition
  std::size_t repeated_samples = 0;  // after repetition
  std::size_t hops = 0;              // num_hops as the script computes it
  std::vector<WindowScores> windows;
  float sig_raw = kNotRunF, bak_raw = kNotRunF, ovrl_raw = kNotRunF;
  double sig = kNotRun, bak = kNotRun, ovrl = kNotRun;
  float p808_mos = kNotRunF;
};

// A clip's scores as aeval reports them (the evaluator, `aeval score dnsmos`, Python):
// SIG, BAK, OVRL, their raw values and P808_MOS (each only for a model that ran), windows.
nlohmann::json clip_json(const ClipScores& c);

// A mono clip as the networks take it, at 16 kHz: other rates resampled as the script's
// librosa.resample does (resampy kaiser_best in float64, then cut or zero-padded to
// ceil(n·16000/rate) samples). aeval::Error (audio) for an empty clip, a non-finite sample
// or a rate ≤ 0. Scoring one clip with several Scorers: resample once, then score at 16 kHz.
std::vector<double> at_16k(std::span<const double> samples, int sample_rate);

class Scorer {
 public:
  // Loads from model_dir the official files the options need: sig_bak_ovr.onnx or
  // psig_bak_ovr.onnx, and model_v8.onnx. aeval::Error (model) names a missing, corrupt or
  // unexpected file and the official file expected.
  explicit Scorer(const std::filesystem::path& model_dir, const Options& options = {});
  ~Scorer();
  Scorer(Scorer&&) noexcept;
  Scorer& operator=(Scorer&&) noexcept;

  // Scores a mono clip, brought to 16 kHz by at_16k (its errors too). Safe to call from
  // several threads at once.
  ClipScores score(std::span<const double> samples, int sample_rate) const;

  // The stages alone, for tests and tools.
  // P.835 network on kWindowSamples float32 samples: {sig, bak, ovrl} raw.
  std::array<float, 3> p835_raw(std::span<const float> window) const;
  // P.808 input of a window's first kWindowSamples − 160 samples (the script's
  // audio_seg[:-160]): kP808Frames × kP808Bands log-mel values, frame-major.
  std::vector<float> p808_input(std::span<const double> samples) const;
  // P.808 network on such an input.
  float p808_raw(std::span<const float> input) const;

  const Options& options() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aeval::dnsmos
