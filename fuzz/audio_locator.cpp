// Locators of audio inside files, as datasets write them and the decoder
// reads them: "FILE#t=START,END" (Kaldi segments) on a WAV file, and
// "FILE#row=N&column=NAME" (Hub Parquet) on a Parquet file of two clips. The
// input is the fragment after '#'.
#include <cstdlib>
#include <string>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "datasets/parquet_clips.hpp"
#include "input_file.hpp"
#include "support/parquet_writer.hpp"

namespace {

struct Files {
  std::filesystem::path wav, parquet;
  Files() {
    aeval::Audio tone;
    tone.sample_rate = 8000;
    tone.channels = 1;
    tone.samples.assign(800, 0.25f);
    wav = aeval::fuzz::scratch_dir() / "clip.wav";
    aeval::write_wav(wav, tone);
    parquet = aeval::fuzz::scratch_dir() / "clips.parquet";
    aeval::testing::write_parquet(
        "SELECT * FROM (VALUES ({'bytes': (SELECT content FROM read_blob('" + wav.string() + "')), 'path': 'a.wav'}, 'x'),"
        " ({'bytes': NULL, 'path': 'b.wav'}, 'y')) AS t(audio, text)",
        parquet);
    // The Parquet clip reader registers itself in the object that makes its locators.
    if (aeval::decode_audio(aeval::datasets::parquet_clip_locator(parquet, 0, "audio")).samples.size() != 800) std::abort();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const Files files;
  const std::string fragment(reinterpret_cast<const char*>(data), size);
  for (const auto& file : {files.wav, files.parquet}) {
    try {
      aeval::decode_audio(file.string() + "#" + fragment);
    } catch (const aeval::Error&) {
    }
  }
  return 0;
}
