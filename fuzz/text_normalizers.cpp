// Every post-process of the built-in registry (the text normalizers: Whisper's,
// jiwer's, Chinese and Japanese ones, the answer extractors, regular
// expressions) on one text: the input, as a model's answer or a reference.
#include <vector>

#include "aeval/error.hpp"
#include "post_process/post_process.hpp"
#include "registry/registry.hpp"

namespace {

std::vector<aeval::pipeline::PostProcess> all_post_processes() {
  static const aeval::registry::Registry registry({aeval::registry::builtin_registry_dir()});
  std::vector<aeval::pipeline::PostProcess> out;
  for (const auto& name : registry.names(aeval::registry::Kind::post_process)) {
    try {
      out.push_back(aeval::pipeline::load_post_process(registry, name));
    } catch (const aeval::Error&) {  // one that needs what is not here (a download)
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const std::vector<aeval::pipeline::PostProcess> steps = all_post_processes();
  static const aeval::pipeline::Sample sample;
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const auto& step : steps) {
    try {
      step.apply(text, sample);
    } catch (const aeval::Error&) {
    }
  }
  return 0;
}
