#pragma once
// The DNSMOS ONNX files, read with the ONNX project's own protobuf classes (Debian libonnx-dev).
// Not an interpreter: the networks are fixed code (networks.cpp) that checks each file's graph
// node by node against the architecture it implements and takes the weights by the role they
// play there. Every complaint names the file and the official file expected (with its sha256).
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace aeval::dnsmos {

// One of the official files of microsoft/DNS-Challenge @ 591184a9fcb2cbdec02520fed81a32bbbf9d73ff.
struct OfficialModel {
  const char* file_name;      // its name in a model folder
  const char* upstream_path;  // its path in the repository
  const char* sha256;
};
extern const OfficialModel kP835Official, kP835PersonalizedOfficial, kP808Official;

struct Tensor {
  std::vector<std::int64_t> dims;
  std::vector<float> floats;       // FLOAT tensors
  std::vector<std::int64_t> ints;  // INT64 tensors
};

struct OnnxNode {
  std::string op_type;
  std::vector<std::string> inputs, outputs;
  std::map<std::string, std::vector<std::int64_t>> ints;  // INT and INTS attributes
  std::map<std::string, std::string> strings;             // STRING attributes
};

class OnnxGraph {
 public:
  // Reads and parses `path`. With require_official, a file whose SHA-256 is not the official
  // one is refused before parsing.
  OnnxGraph(const std::filesystem::path& path, const OfficialModel& official, bool require_official);

  const std::vector<OnnxNode>& nodes() const { return nodes_; }
  const std::string& sha256() const { return sha256_; }
  // The graph's first input and its dims (-1 where symbolic), and its first output's name.
  const std::string& input_name() const { return input_name_; }
  const std::vector<std::int64_t>& input_dims() const { return input_dims_; }
  const std::string& output_name() const { return output_name_; }

  // aeval::Error (model): "DNSMOS model PATH: WHAT; expected the official FILE (…, sha256 …)".
  [[noreturn]] void fail(const std::string& what) const;

  // Checks on node `index`, each failing with a message that says what was found instead.
  const OnnxNode& node(std::size_t index, const char* op_type) const;
  // Input `input` of node `index` must be an initializer with these dims.
  const Tensor& constant(std::size_t index, std::size_t input, const std::vector<std::int64_t>& dims) const;
  // Attribute `name` of node `index` (`fallback` when absent, as ONNX defaults it) must equal `expected`.
  void expect_ints(std::size_t index, const std::string& name, const std::vector<std::int64_t>& expected,
                   const std::vector<std::int64_t>& fallback) const;
  // Node `index` must read node index − 1's first output.
  void expect_chained(std::size_t index) const;

 private:
  std::filesystem::path path_;
  const OfficialModel& official_;
  std::string sha256_;
  std::vector<OnnxNode> nodes_;
  std::map<std::string, Tensor> initializers_;
  std::string input_name_, output_name_;
  std::vector<std::int64_t> input_dims_;
};

}  // namespace aeval::dnsmos
