// Dataset archives (tar, gzip/bzip2/xz/zstd tar, zip) unpacked as a download
// of one is: whatever the bytes, nothing is written outside the destination,
// the destination holds only files and folders, a failure leaves no
// temporary folder behind, and every refusal is an aeval::Error.
#include <cstdlib>
#include <filesystem>
#include <string>

#include "aeval/error.hpp"
#include "datasets/archive_extract.hpp"
#include "input_file.hpp"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const fs::path box = aeval::fuzz::scratch_dir() / "box";
  fs::create_directories(box);
  aeval::fuzz::write_file(box / "input.tar", std::string_view(reinterpret_cast<const char*>(data), size));
  try {
    aeval::datasets::extract_archive(box / "input.tar", box / "out");
  } catch (const aeval::Error&) {
  }
  for (const auto& entry : fs::directory_iterator(aeval::fuzz::scratch_dir()))
    if (entry.path().filename() != "box") std::abort();  // written beside the box
  for (const auto& entry : fs::directory_iterator(box))
    if (entry.path().filename() != "input.tar" && entry.path().filename() != "out") std::abort();  // a leftover
  if (fs::exists(box / "out")) {
    for (const auto& entry : fs::recursive_directory_iterator(box / "out"))
      if (!entry.is_directory() && !(entry.is_regular_file() && !entry.is_symlink())) std::abort();
    fs::remove_all(box / "out");
  }
  return 0;
}
