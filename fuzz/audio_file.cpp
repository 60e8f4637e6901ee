// Audio decoding as models and scorers load it (decode, downmix, resample):
// WAV, FLAC, Ogg Vorbis/Opus and MP3 through libsndfile, G.722 and whatever
// else through FFmpeg. The input's first line is the file's extension
// (".mp3", ".g722", ...: libsndfile and aeval choose decoders by it), the
// rest its bytes. Audio that loads keeps the documented promises.
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "input_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t newline = input.find('\n');
  if (newline == std::string_view::npos || newline > 8) return -1;
  std::string extension(input.substr(0, newline));
  for (char& c : extension)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.') c = '_';  // stays a file name
  const std::string_view bytes = input.substr(newline + 1);
  const auto path = aeval::fuzz::scratch_dir() / ("input" + extension);
  aeval::fuzz::write_file(path, bytes);
  try {
    const aeval::Audio audio = aeval::load_mono(path, 16000);
    if (audio.sample_rate != 16000 || audio.channels != 1 || audio.samples.empty()) std::abort();
    for (const float x : audio.samples)
      if (!std::isfinite(x)) std::abort();
  } catch (const aeval::Error&) {
  }
  return 0;
}
