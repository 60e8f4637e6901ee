// The plain-text dataset formats, through the dataset classes that read them
// (`datasets::load_dataset` of a registry entry, as a run does): a TSV list
// with a header (Common Voice), a CSV list, a headerless TSV with named
// columns (FLEURS), a LibriSpeech transcript file in its layout, and a Kaldi
// data directory. Input: up to four parts split by 0xFF bytes; the first is
// the list and the transcript, and the four are also the Kaldi folder's
// wav.scp, text, segments and utt2spk (a missing part, no file).
#include <array>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "input_file.hpp"
#include "registry/registry.hpp"

namespace {

const aeval::registry::Registry& registry() {
  static const aeval::registry::Registry loaded = [] {
    const auto& dir = aeval::fuzz::scratch_dir();
    std::filesystem::create_directories(dir / "registry" / "datasets");
    std::filesystem::create_directories(dir / "kaldi");
    std::filesystem::create_directories(dir / "librispeech" / "19" / "198");
    std::ofstream(dir / "registry" / "datasets" / "lists.yaml")
        << "fuzz-tsv:\n  class: table\n  args:\n    path: " << (dir / "list.tsv").string() << "\n"
        << "fuzz-csv:\n  class: table\n  args:\n    path: " << (dir / "list.csv").string() << "\n"
        << "fuzz-columns:\n  class: table\n  args:\n    path: " << (dir / "columns.tsv").string()
        << "\n    columns: [id, path, sentence]\n    id_column: id\n    audio_column: path\n    text_column: sentence\n"
        << "fuzz-kaldi:\n  class: kaldi\n  args:\n    path: " << (dir / "kaldi").string() << "\n"
        << "fuzz-librispeech:\n  class: librispeech\n  args:\n    path: " << (dir / "librispeech").string() << "\n";
    return aeval::registry::Registry({dir / "registry"});
  }();
  return loaded;
}

void load(const std::string& name) {
  try {
    for (const auto& sample : aeval::datasets::load_dataset(registry(), name).samples)
      if (sample.id.empty() && sample.audio.empty() && !sample.reference) return;
  } catch (const aeval::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  registry();  // makes the folders the inputs are written to
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::array<std::string, 4> parts;
  std::array<bool, 4> present{};
  std::size_t at = 0;
  for (std::size_t k = 0; k < parts.size() && at <= input.size(); ++k) {
    const std::size_t end = std::min(input.find('\xff', at), input.size());
    parts[k] = std::string(input.substr(at, end - at));
    present[k] = true;
    at = end + 1;
  }
  const auto& dir = aeval::fuzz::scratch_dir();
  for (const char* name : {"list.tsv", "list.csv", "columns.tsv", "librispeech/19/198/19-198.trans.txt"})
    aeval::fuzz::write_file(dir / name, parts[0]);
  const std::array<const char*, 4> kaldi = {"wav.scp", "text", "segments", "utt2spk"};
  for (std::size_t k = 0; k < kaldi.size(); ++k) {
    std::error_code ignored;
    if (present[k]) aeval::fuzz::write_file(dir / "kaldi" / kaldi[k], parts[k]);
    else std::filesystem::remove(dir / "kaldi" / kaldi[k], ignored);
  }
  for (const char* name : {"fuzz-tsv", "fuzz-csv", "fuzz-columns", "fuzz-kaldi", "fuzz-librispeech"}) load(name);
  return 0;
}
