#include "dnsmos/networks.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "dnsmos/dnsmos.hpp"

namespace aeval::dnsmos {

namespace {

constexpr int kFrames = 900, kFrameLength = 320, kHop = 160, kBins = 161;
constexpr int kDftColumns = 336;  // 2 × 161 rounded up to the widest float vector's multiple
constexpr std::int64_t kToEnd = std::numeric_limits<std::int64_t>::max();

float scalar(const OnnxGraph& graph, std::size_t node, std::size_t input, float expected, const char* what) {
  const float value = graph.constant(node, input, {}).floats.at(0);
  if (value != expected) graph.fail(std::string(what) + " is " + std::to_string(value));
  return value;
}

void expect_int64s(const OnnxGraph& graph, std::size_t node, std::size_t input, const std::vector<std::int64_t>& expected) {
  if (graph.constant(node, input, {std::int64_t(expected.size())}).ints != expected)
    graph.fail("the constants of node " + std::to_string(node) + " (" + graph.nodes()[node].op_type +
               ") are not those of the architecture");
}

void expect_auto_pad(const OnnxGraph& graph, std::size_t node, std::initializer_list<const char*> allowed) {
  const auto& strings = graph.nodes()[node].strings;
  const auto it = strings.find("auto_pad");
  if (it == strings.end()) return;
  for (const char* a : allowed)
    if (it->second == a) return;
  graph.fail("auto_pad of node " + std::to_string(node) + " is " + it->second);
}

void expect_input(const OnnxGraph& graph, const std::vector<std::int64_t>& dims) {
  if (graph.input_dims().size() != dims.size() + 1 ||
      !std::equal(dims.begin(), dims.end(), graph.input_dims().begin() + 1))
    graph.fail("its input " + graph.input_name() + " does not have the architecture's shape");
}

}  // namespace

ConvStack::ConvStack(const OnnxGraph& graph, std::size_t first, const std::vector<Stage>& stages,
                     const std::vector<int>& dense_widths) {
  std::size_t i = first;
  int channels = 1;
  for (const Stage& stage : stages) {
    graph.node(i, "Conv");
    graph.expect_chained(i);
    const int k = stage.out_channels;
    const Tensor& w = graph.constant(i, 1, {k, channels, 3, 3});
    Conv conv{channels, k, stage.pool, {}, graph.constant(i, 2, {k}).floats};
    graph.expect_ints(i, "kernel_shape", {3, 3}, {});
    graph.expect_ints(i, "pads", {1, 1, 1, 1}, {0, 0, 0, 0});
    graph.expect_ints(i, "strides", {1, 1}, {1, 1});
    graph.expect_ints(i, "dilations", {1, 1}, {1, 1});
    graph.expect_ints(i, "group", {1}, {1});
    expect_auto_pad(graph, i, {"NOTSET"});
    if (channels == 1) {
      conv.weights.resize(std::size_t(9) * k);
      for (int o = 0; o < k; ++o)
        for (int tap = 0; tap < 9; ++tap) conv.weights[std::size_t(tap) * k + o] = w.floats[std::size_t(o) * 9 + tap];
    } else {
      conv.weights.resize(std::size_t(kernels::kWinogradPoints) * channels * k);
      kernels::winograd_weights(w.floats.data(), k, channels, conv.weights.data());
    }
    convs_.push_back(std::move(conv));
    graph.node(++i, "Relu");
    graph.expect_chained(i);
    if (stage.pool) {
      graph.node(++i, "MaxPool");
      graph.expect_chained(i);
      graph.expect_ints(i, "kernel_shape", {2, 2}, {});
      graph.expect_ints(i, "strides", {2, 2}, {1, 1});
      graph.expect_ints(i, "pads", {0, 0, 0, 0}, {0, 0, 0, 0});
      graph.expect_ints(i, "ceil_mode", {0}, {0});
      expect_auto_pad(graph, i, {"NOTSET", "VALID"});
    }
    channels = k;
    ++i;
  }
  graph.node(i, "Transpose");
  graph.expect_chained(i);
  graph.expect_ints(i, "perm", {0, 2, 3, 1}, {});
  graph.node(++i, "ReduceMax");
  graph.expect_chained(i);
  graph.expect_ints(i, "axes", {1, 2}, {});
  graph.expect_ints(i, "keepdims", {0}, {1});
  ++i;
  int width = channels;
  for (std::size_t d = 0; d < dense_widths.size(); ++d) {
    const int out = dense_widths[d];
    const bool relu = d + 1 < dense_widths.size();
    graph.node(i, "MatMul");
    graph.expect_chained(i);
    Dense dense{width, out, relu, graph.constant(i, 1, {width, out}).floats, {}};
    graph.node(++i, "Add");
    graph.expect_chained(i);
    dense.bias = graph.constant(i, 1, {out}).floats;
    if (relu) {
      graph.node(++i, "Relu");
      graph.expect_chained(i);
    }
    dense_.push_back(std::move(dense));
    width = out;
    ++i;
  }
  if (i != graph.nodes().size())
    graph.fail("the graph has " + std::to_string(graph.nodes().size() - i) + " node(s) after the architecture's last");
}

namespace {

// A consumer's tile row t reads rows 6t − 1 … 6t + 6 while its producer has written up to row 6t + 11: 13
// rows at once, so a ring of 12 would overwrite the first; 18 is three tile rows.
constexpr int kRingRows = 3 * kernels::kTileRows;

void run_tile_rows(kernels::Conv3x3 c, int begin, int end, const kernels::KernelSet& kernels) {
  c.tile_row_begin = begin;
  c.tile_row_end = end;
  if (c.in_channels == 1) {
    kernels.conv3x3_single_input(c);
  } else {
    kernels.conv3x3_winograd(c);
  }
}

// Runs stage s until it has produced `tile_rows` tile rows, its producers only as far as it needs.
void produce(const std::vector<kernels::Conv3x3>& calls, std::vector<int>& done, std::size_t s, int tile_rows,
             const kernels::KernelSet& kernels) {
  for (; done[s] < tile_rows; ++done[s]) {
    if (s > 0) {
      const int last_input_row = std::min(kernels::kTileRows * (done[s] + 1), calls[s].height - 1);
      produce(calls, done, s - 1, last_input_row / kernels::kTileRows + 1, kernels);
    }
    run_tile_rows(calls[s], done[s], done[s] + 1, kernels);
  }
}

}  // namespace

std::vector<float> ConvStack::run(const float* image, int height, int width, NetworkBuffers& buffers,
                                  const kernels::KernelSet& kernels) const {
  std::size_t fused = 0;  // stages 0 … fused run through rings
  while (fused + 1 < convs_.size() && !convs_[fused].pool) ++fused;
  // Sizes first: reserving may move a buffer, and the calls keep pointers into them.
  std::vector<kernels::Conv3x3> calls(convs_.size());
  std::vector<std::size_t> out_floats(convs_.size());
  std::size_t ping = 0, pong = 0, scratch = 0;
  for (std::size_t s = 0, channels = 1; s < convs_.size(); ++s) {
    const Conv& conv = convs_[s];
    kernels::Conv3x3& c = calls[s];
    c.height = height;
    c.width = width;
    c.in_channels = int(channels);
    c.out_channels = conv.out_channels;
    c.weights = conv.weights.data();
    c.bias = conv.bias.data();
    c.pool = conv.pool;
    if (conv.pool) {
      height /= 2;
      width /= 2;
    }
    const std::size_t row = std::size_t(width) * std::size_t(conv.out_channels);
    c.out_ring = s < fused ? kRingRows : 0;
    out_floats[s] = (s < fused ? kRingRows : std::size_t(height)) * row;
    if (s >= fused) ((s - fused) % 2 ? pong : ping) = std::max((s - fused) % 2 ? pong : ping, out_floats[s]);
    scratch = std::max(scratch, kernels::conv_scratch_floats(int(channels), conv.out_channels, c.width));
    channels = std::size_t(conv.out_channels);
  }
  buffers.rings.resize(fused);
  buffers.ping.reserve(ping);
  buffers.pong.reserve(pong);
  buffers.scratch.reserve(scratch);
  for (std::size_t s = 0; s < calls.size(); ++s) {
    kernels::Conv3x3& c = calls[s];
    c.out = s < fused ? buffers.rings[s].reserve(out_floats[s]) : ((s - fused) % 2 ? buffers.pong : buffers.ping).data();
    c.in = s == 0 ? image : calls[s - 1].out;
    c.in_ring = s == 0 ? 0 : calls[s - 1].out_ring;
    c.scratch = buffers.scratch.data();
  }
  std::vector<int> done(fused + 1, 0);
  produce(calls, done, fused, kernels::tile_rows(calls[fused].height), kernels);
  for (std::size_t s = fused + 1; s < calls.size(); ++s) run_tile_rows(calls[s], 0, kernels::tile_rows(calls[s].height), kernels);

  // ReduceMax over time and frequency: one value per channel.
  const float* in = calls.back().out;
  const int channels = calls.back().out_channels;
  std::vector<float> x(std::size_t(channels), -std::numeric_limits<float>::infinity());
  for (long p = 0; p < long(height) * width; ++p)
    for (int ch = 0; ch < channels; ++ch) x[std::size_t(ch)] = std::max(x[std::size_t(ch)], in[p * channels + ch]);
  for (const Dense& d : dense_) {
    using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
    const Eigen::Map<const RowMajor> w(d.weights.data(), d.in, d.out);
    Eigen::RowVectorXf y = Eigen::Map<const Eigen::RowVectorXf>(x.data(), d.in) * w;
    y += Eigen::Map<const Eigen::RowVectorXf>(d.bias.data(), d.out);
    if (d.relu) y = y.cwiseMax(0.0f);
    x.assign(y.data(), y.data() + d.out);
  }
  return x;
}

P835Network::P835Network(const OnnxGraph& graph) {
  expect_input(graph, {std::int64_t(kWindowSamples)});
  // Frames: x[0:144000] and x[160:144160] as 900 × 160 halves, side by side.
  graph.node(0, "Slice");
  expect_int64s(graph, 0, 1, {0, 0});
  expect_int64s(graph, 0, 2, {kToEnd, kFrames * kHop});
  expect_int64s(graph, 0, 3, {0, 1});
  expect_int64s(graph, 0, 4, {1, 1});
  graph.node(1, "Slice");
  expect_int64s(graph, 1, 1, {0, kHop});
  expect_int64s(graph, 1, 2, {kToEnd, kToEnd});
  expect_int64s(graph, 1, 3, {0, 1});
  expect_int64s(graph, 1, 4, {1, 1});
  for (std::size_t n : {2, 3}) {
    graph.node(n, "Reshape");
    expect_int64s(graph, n, 1, {-1, kFrames, kHop});
  }
  graph.node(4, "Concat");
  graph.expect_ints(4, "axis", {2}, {});
  for (std::size_t n : {5, 6}) {
    graph.node(n, "Transpose");
    graph.expect_ints(n, "perm", {0, 2, 1}, {});
  }
  // The two 1×1 Convs: real and imaginary parts (their squares are summed, so either order).
  dft_.assign(std::size_t(kFrameLength) * kDftColumns, 0.0f);
  for (int half = 0; half < 2; ++half) {
    const std::size_t n = 7 + std::size_t(half);
    graph.node(n, "Conv");
    const Tensor& w = graph.constant(n, 1, {kBins, kFrameLength, 1});
    if (graph.nodes()[n].inputs.size() != 2) graph.fail("the DFT convolution of node " + std::to_string(n) + " has a bias");
    graph.expect_ints(n, "kernel_shape", {1}, {});
    graph.expect_ints(n, "strides", {1}, {1});
    graph.expect_ints(n, "dilations", {1}, {1});
    graph.expect_ints(n, "group", {1}, {1});
    graph.expect_ints(n, "pads", {0, 0}, {0, 0});
    for (int bin = 0; bin < kBins; ++bin)
      for (int k = 0; k < kFrameLength; ++k)
        dft_[std::size_t(k) * kDftColumns + std::size_t(half * kBins + bin)] = w.floats[std::size_t(bin) * kFrameLength + k];
  }
  for (std::size_t n : {9, 10}) {
    graph.node(n, "Transpose");
    graph.expect_ints(n, "perm", {0, 2, 1}, {});
  }
  graph.node(11, "Mul");
  graph.node(12, "Mul");
  graph.node(13, "Add");
  graph.node(14, "Sqrt");
  graph.expect_chained(14);
  graph.node(15, "Pow");
  graph.expect_chained(15);
  scalar(graph, 15, 1, 2.0f, "the exponent of node 15 (Pow)");
  graph.node(16, "Max");
  power_floor_ = scalar(graph, 16, 0, 1e-12f, "the floor of node 16 (Max)");
  graph.node(17, "Log");
  graph.expect_chained(17);
  graph.node(18, "Div");
  graph.expect_chained(18);
  ln10_ = scalar(graph, 18, 1, 2.3025851f, "the divisor of node 18 (Div)");
  graph.node(19, "Unsqueeze");
  graph.expect_chained(19);
  graph.expect_ints(19, "axes", {3}, {});
  graph.node(20, "Transpose");
  graph.expect_chained(20);
  graph.expect_ints(20, "perm", {0, 3, 1, 2}, {});
  stack_ = ConvStack(graph, 21, {{128, false}, {64, false}, {64, false}, {32, true}, {32, true}, {32, true}, {64, false}},
                     {128, 64, 3});
}

std::array<float, 3> P835Network::run(const float* window, NetworkBuffers& buffers,
                                      const kernels::KernelSet& kernels) const {
  // Frame t is window[160t, 160t + 320): overlapping rows of one matrix.
  kernels::Gemm<float> g;
  g.M = kFrames;
  g.N = kDftColumns;
  g.K = kFrameLength;
  g.A = window;
  g.lda = kHop;
  g.B = dft_.data();
  g.ldb = kDftColumns;
  g.C = buffers.spectrum.reserve(std::size_t(kFrames) * kDftColumns);
  g.ldc = kDftColumns;
  kernels.gemm_f32(g);
  float* image = buffers.image.reserve(std::size_t(kFrames) * kBins);
  for (int t = 0; t < kFrames; ++t) {
    const float* row = g.C + std::size_t(t) * kDftColumns;
    for (int bin = 0; bin < kBins; ++bin) {
      const float re = row[bin], im = row[kBins + bin];
      const float magnitude = std::sqrt(re * re + im * im);  // the graph's Sqrt, then Pow 2
      image[std::size_t(t) * kBins + bin] = std::log(std::max(power_floor_, magnitude * magnitude)) / ln10_;
    }
  }
  const std::vector<float> out = stack_.run(image, kFrames, kBins, buffers, kernels);
  return {out[0], out[1], out[2]};
}

P808Network::P808Network(const OnnxGraph& graph) {
  expect_input(graph, {std::int64_t(kP808Frames), std::int64_t(kP808Bands)});
  graph.node(0, "Unsqueeze");
  graph.expect_ints(0, "axes", {3}, {});
  graph.node(1, "Transpose");
  graph.expect_chained(1);
  graph.expect_ints(1, "perm", {0, 3, 1, 2}, {});
  stack_ = ConvStack(graph, 2, {{32, true}, {32, true}, {32, false}, {32, true}, {64, false}}, {64, 64, 1});
}

float P808Network::run(const float* input, NetworkBuffers& buffers, const kernels::KernelSet& kernels) const {
  return stack_.run(input, int(kP808Frames), int(kP808Bands), buffers, kernels).at(0);
}

}  // namespace aeval::dnsmos
