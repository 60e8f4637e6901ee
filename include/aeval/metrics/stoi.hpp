#pragma once
// Short-Time Objective Intelligibility (Taal et al. 2011) and extended STOI
// (Jensen & Taal 2016) as pystoi 0.4.1 computes them: Octave-compatible
// polyphase resampling to 10 kHz, silent-frame removal (40 dB), 1/3-octave
// bands from 150 Hz, 30-frame segments, clipping at -15 dB SDR.
#include <vector>

namespace aeval::metrics {

struct StoiResult {
  double value = 0;
  // pystoi's sentinel: fewer than 30 frames were left after silent-frame
  // removal, so it returns 1e-5 (and so does aeval, saying so here).
  bool too_few_frames = false;
};

// clean and degraded at `sample_rate` Hz, same length. Throws aeval::Error
// (data) for different lengths, a silent clean signal, or a signal shorter
// than one 256-sample analysis frame at 10 kHz.
StoiResult stoi(const std::vector<double>& clean, const std::vector<double>& degraded, int sample_rate,
                bool extended = false);

// pystoi's resample_oct: scipy.signal.resample_poly with Octave's
// Kaiser-windowed sinc (60 dB rejection), from `from_rate` to `to_rate`.
std::vector<double> resample_octave(const std::vector<double>& x, int to_rate, int from_rate);

}  // namespace aeval::metrics
