#pragma once
// The two DNSMOS networks as fixed code. Each checks its ONNX graph node by node against the
// architecture below (dnsmos_graphs.txt of shared/models/dnsmos lists the nodes) and takes its
// weights from the nodes that use them.
//   P.835 (sig_bak_ovr.onnx, psig_bak_ovr.onnx): 320-sample frames at hop 160 → two 1×1 Convs
//     (real and imaginary DFT with the window folded in) → log10(max(1e-12, |X|²)) → a 900×161
//     image → the convolution stack below → {SIG, BAK, OVRL} raw.
//   P.808 (model_v8.onnx): a 900×120 log-mel image → the convolution stack → MOS.
// The convolution stack: Conv3×3 (pad 1) + ReLU stages, some followed by MaxPool 2×2, a
// ReduceMax over time and frequency, then MatMul + Add (+ ReLU) layers.
#include <array>
#include <cstddef>
#include <vector>

#include "dnsmos/kernels.hpp"
#include "dnsmos/onnx_weights.hpp"

namespace aeval::dnsmos {

// Activations of one network run, reused between runs.
struct NetworkBuffers {
  kernels::AlignedBuffer<float> spectrum, image, ping, pong, scratch;
  std::vector<kernels::AlignedBuffer<float>> rings;
};

class ConvStack {
 public:
  struct Stage {
    int out_channels;
    bool pool;
  };
  ConvStack() = default;
  // Checks nodes first, first + 1, … (Conv, Relu[, MaxPool] per stage; Transpose, ReduceMax;
  // MatMul, Add[, Relu] per dense layer, the last without) up to the graph's end.
  ConvStack(const OnnxGraph& graph, std::size_t first, const std::vector<Stage>& stages,
            const std::vector<int>& dense_widths);
  // image: height × width, one channel. Returns the last dense layer's outputs. The stages up to
  // the first that pools run a few rows apart through row rings, so their full-resolution
  // outputs (74 MB for P.835's first) never leave the cache; the others run whole.
  std::vector<float> run(const float* image, int height, int width, NetworkBuffers& buffers,
                         const kernels::KernelSet& kernels) const;

 private:
  struct Conv {
    int in_channels = 0, out_channels = 0;
    bool pool = false;
    std::vector<float> weights;  // the kernels' layout: [9][out] for one input channel, Winograd otherwise
    std::vector<float> bias;
  };
  struct Dense {
    int in = 0, out = 0;
    bool relu = false;
    std::vector<float> weights;  // [in][out]
    std::vector<float> bias;
  };
  std::vector<Conv> convs_;
  std::vector<Dense> dense_;
};

class P835Network {
 public:
  explicit P835Network(const OnnxGraph& graph);
  // window: kWindowSamples samples → {sig, bak, ovrl} raw.
  std::array<float, 3> run(const float* window, NetworkBuffers& buffers, const kernels::KernelSet& kernels) const;

 private:
  std::vector<float> dft_;  // [320][kDftColumns]: real parts of bins 0…160, imaginary parts, zeros
  float power_floor_ = 0, ln10_ = 0;
  ConvStack stack_;
};

class P808Network {
 public:
  explicit P808Network(const OnnxGraph& graph);
  // input: kP808Frames × kP808Bands → MOS.
  float run(const float* input, NetworkBuffers& buffers, const kernels::KernelSet& kernels) const;

 private:
  ConvStack stack_;
};

}  // namespace aeval::dnsmos
