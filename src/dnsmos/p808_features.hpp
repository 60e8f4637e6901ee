#pragma once
// The P.808 model's input as dnsmos_local.py computes it in float64 with librosa:
// (power_to_db(melspectrogram(y, sr=16000, n_fft=321, hop_length=160, n_mels=120), ref=np.max)
// + 40) / 40, transposed and cast to float32. librosa 0.8.1 (the pinned version) pads the
// centred STFT by reflection and places its Slaney filterbank on linspace(0, 8000, 161);
// librosa ≥ 0.9 pads with zeros and uses rfftfreq(321, 1/16000). Both: periodic Hann(321),
// |X|², the filterbank built in float64 and stored in float32 (librosa's dtype), amin 1e-10,
// top_db 80.
#include <vector>

#include "dnsmos/dnsmos.hpp"
#include "dnsmos/kernels.hpp"

namespace aeval::dnsmos {

struct FeatureBuffers {
  kernels::AlignedBuffer<double> padded, spectrum;
  std::vector<double> mel;
};

class P808FeatureExtractor {
 public:
  explicit P808FeatureExtractor(P808Features semantics);
  // samples: kWindowSamples − 160 values → out: kP808Frames × kP808Bands, frame-major.
  void compute(const double* samples, float* out, FeatureBuffers& buffers, const kernels::KernelSet& kernels) const;

 private:
  struct Band {
    int first_bin = 0;
    std::vector<double> weights;  // the float32 filter, widened
  };
  P808Features semantics_;
  std::vector<double> dft_;  // [321][kDftColumns]: window·cos, −window·sin, zeros
  std::vector<Band> bands_;
};

}  // namespace aeval::dnsmos
