// Registry folders (YAML entries checked against the class declarations).
// One input is a small registry: a line "#> FOLDER" (a YAML comment) starts
// a file in that folder (tasks, datasets, prompts, models, post-process,
// evaluators, aggregators, benchmarks); text before the first such line
// is a file in tasks/.
#include <algorithm>
#include <string>
#include <string_view>

#include "aeval/error.hpp"
#include "input_file.hpp"
#include "registry/registry.hpp"

namespace {

using aeval::registry::Kind;

bool is_registry_folder(std::string_view name) {
  if (name == aeval::registry::kBenchmarksFolder) return true;
  for (const Kind kind : aeval::registry::kAllKinds)
    if (name == aeval::registry::folder_name(kind)) return true;
  return false;
}

// Writes the files the input describes into a fresh folder and returns it.
std::filesystem::path write_registry(std::string_view input) {
  const auto root = aeval::fuzz::scratch_dir() / "registry";
  std::filesystem::remove_all(root);
  std::string folder = "tasks", content;
  int files = 0;
  const auto flush = [&] {
    std::filesystem::create_directories(root / folder);
    aeval::fuzz::write_file(root / folder / (std::to_string(files++) + ".yaml"), content);
    content.clear();
  };
  constexpr std::string_view kHeader = "#> ";
  for (std::size_t at = 0; at < input.size();) {
    const std::size_t end = std::min(input.find('\n', at), input.size());
    const std::string_view line = input.substr(at, end - at);
    if (line.starts_with(kHeader) && is_registry_folder(line.substr(kHeader.size()))) {
      if (!content.empty()) flush();
      folder = line.substr(kHeader.size());
    } else {
      content.append(line).append("\n");
    }
    at = end + 1;
  }
  if (!content.empty()) flush();
  std::filesystem::create_directories(root);
  return root;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const auto root = write_registry(std::string_view(reinterpret_cast<const char*>(data), size));
  try {
    const aeval::registry::Registry registry({root});
    // Provenance records carry every entry's arguments as JSON.
    for (const Kind kind : aeval::registry::kAllKinds)
      for (const auto& name : registry.names(kind)) aeval::registry::yaml_to_json(registry.get(kind, name).args).dump();
  } catch (const aeval::Error&) {
  }
  return 0;
}
