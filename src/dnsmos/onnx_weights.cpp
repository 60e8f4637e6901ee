#include "dnsmos/onnx_weights.hpp"

#include <onnx/onnx_pb.h>  // ONNX_ML=1 comes with the onnx_proto target: Debian builds the ONNX-ML messages

#include <bit>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "aeval/error.hpp"
#include "util/sha256.hpp"

namespace aeval::dnsmos {

const OfficialModel kP835Official{"sig_bak_ovr.onnx", "DNSMOS/DNSMOS/sig_bak_ovr.onnx",
                                  "269fbebdb513aa23cddfbb593542ecc540284a91849ac50516870e1ac78f6edd"};
const OfficialModel kP835PersonalizedOfficial{"psig_bak_ovr.onnx", "DNSMOS/pDNSMOS/sig_bak_ovr.onnx",
                                              "9e3a197449ca2177f0997afec3bd6b890117ce2f17b89d6eea7fa0d47272c81c"};
const OfficialModel kP808Official{"model_v8.onnx", "DNSMOS/DNSMOS/model_v8.onnx",
                                  "9246480c58567bc6affd4200938e77eef49468c8bc7ed3776d109c07456f6e91"};

namespace {

static_assert(std::endian::native == std::endian::little, "ONNX raw_data is little-endian");

std::string dims_text(const std::vector<std::int64_t>& dims) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < dims.size(); ++i) out << (i ? ", " : "") << dims[i];
  out << ']';
  return out.str();
}

template <class T, class Repeated>
std::vector<T> tensor_values(const onnx::TensorProto& t, const Repeated& typed) {
  if (!t.has_raw_data()) return std::vector<T>(typed.begin(), typed.end());
  std::vector<T> values(t.raw_data().size() / sizeof(T));
  std::memcpy(values.data(), t.raw_data().data(), values.size() * sizeof(T));
  return values;
}

std::vector<std::int64_t> value_info_dims(const onnx::ValueInfoProto& info) {
  std::vector<std::int64_t> dims;
  for (const auto& d : info.type().tensor_type().shape().dim()) dims.push_back(d.has_dim_value() ? d.dim_value() : -1);
  return dims;
}

}  // namespace

OnnxGraph::OnnxGraph(const std::filesystem::path& path, const OfficialModel& official, bool require_official)
    : path_(path), official_(official) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("cannot be read");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) fail("read error");
  sha256_ = sha256_hex(bytes);
  if (require_official && sha256_ != official.sha256) fail("its sha256 is " + sha256_);

  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) fail("not an ONNX model (its protobuf does not parse)");
  const onnx::GraphProto& graph = model.graph();
  for (const auto& t : graph.initializer()) {
    Tensor& tensor = initializers_[t.name()];
    tensor.dims.assign(t.dims().begin(), t.dims().end());
    if (t.data_type() == onnx::TensorProto::FLOAT) tensor.floats = tensor_values<float>(t, t.float_data());
    if (t.data_type() == onnx::TensorProto::INT64) tensor.ints = tensor_values<std::int64_t>(t, t.int64_data());
  }
  for (const auto& n : graph.node()) {
    OnnxNode node;
    node.op_type = n.op_type();
    node.inputs.assign(n.input().begin(), n.input().end());
    node.outputs.assign(n.output().begin(), n.output().end());
    for (const auto& a : n.attribute()) {
      if (a.type() == onnx::AttributeProto::INT) node.ints[a.name()] = {a.i()};
      if (a.type() == onnx::AttributeProto::INTS) node.ints[a.name()].assign(a.ints().begin(), a.ints().end());
      if (a.type() == onnx::AttributeProto::STRING) node.strings[a.name()] = a.s();
    }
    nodes_.push_back(std::move(node));
  }
  for (const auto& input : graph.input()) {
    if (initializers_.count(input.name())) continue;  // older IR versions list initializers as inputs
    input_name_ = input.name();
    input_dims_ = value_info_dims(input);
    break;
  }
  if (graph.output_size() > 0) output_name_ = graph.output(0).name();
}

void OnnxGraph::fail(const std::string& what) const {
  throw Error(ErrorCategory::model, "DNSMOS model " + path_.string() + ": " + what + "; expected the official " +
                                        official_.file_name + " (microsoft/DNS-Challenge @ "
                                        "591184a9fcb2cbdec02520fed81a32bbbf9d73ff, " +
                                        official_.upstream_path + ", sha256 " + official_.sha256 + ")");
}

const OnnxNode& OnnxGraph::node(std::size_t index, const char* op_type) const {
  if (index >= nodes_.size())
    fail("the graph ends after " + std::to_string(nodes_.size()) + " nodes where node " + std::to_string(index) +
         " should be " + op_type);
  const OnnxNode& n = nodes_[index];
  if (n.op_type != op_type)
    fail("node " + std::to_string(index) + " is " + n.op_type + " where the architecture has " + op_type);
  return n;
}

const Tensor& OnnxGraph::constant(std::size_t index, std::size_t input, const std::vector<std::int64_t>& dims) const {
  const OnnxNode& n = nodes_.at(index);
  const std::string where = "input " + std::to_string(input) + " of node " + std::to_string(index) + " (" + n.op_type + ")";
  if (input >= n.inputs.size()) fail(where + " is missing");
  const auto it = initializers_.find(n.inputs[input]);
  if (it == initializers_.end()) fail(where + " is not a constant");
  const Tensor& t = it->second;
  if (t.dims != dims) fail(where + " has shape " + dims_text(t.dims) + " instead of " + dims_text(dims));
  std::size_t count = 1;
  for (auto d : dims) count *= std::size_t(d);
  if (t.floats.size() != count && t.ints.size() != count)
    fail(where + " holds " + std::to_string(t.floats.size() + t.ints.size()) + " float32/int64 values instead of " +
         std::to_string(count));
  return t;
}

void OnnxGraph::expect_ints(std::size_t index, const std::string& name, const std::vector<std::int64_t>& expected,
                            const std::vector<std::int64_t>& fallback) const {
  const OnnxNode& n = nodes_.at(index);
  const auto it = n.ints.find(name);
  const auto& actual = it == n.ints.end() ? fallback : it->second;
  if (actual != expected)
    fail("attribute " + name + " of node " + std::to_string(index) + " (" + n.op_type + ") is " + dims_text(actual) +
         " instead of " + dims_text(expected));
}

void OnnxGraph::expect_chained(std::size_t index) const {
  const OnnxNode& n = nodes_.at(index);
  const OnnxNode& previous = nodes_.at(index - 1);
  if (n.inputs.empty() || previous.outputs.empty() || n.inputs[0] != previous.outputs[0])
    fail("node " + std::to_string(index) + " (" + n.op_type + ") does not read the output of node " +
         std::to_string(index - 1));
}

}  // namespace aeval::dnsmos
