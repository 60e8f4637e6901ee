// Decoding: libsndfile first (WAV, FLAC, OGG/Vorbis, Opus, MP3), FFmpeg for
// headerless G.722 and whatever libsndfile does not recognise.
#include <sndfile.h>

#include <cctype>
#include <cstdio>
#include <memory>
#include <system_error>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "audio/ffmpeg_decode.hpp"

namespace aeval {

namespace {

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

// libsndfile opens a WAV/AIFF whose data chunk runs past the end of the file
// and quietly shortens it; its log says "data : 32000 (should be 15956)".
// Streaming writers leave 0 or 0xFFFFFFFF there on purpose: not truncation.
void reject_truncated_chunk(SNDFILE* file, const std::filesystem::path& path) {
  char log[8192] = {0};
  sf_command(file, SFC_GET_LOG_INFO, log, sizeof log);
  const std::string text = log;
  const auto at = text.find("\ndata : ");
  if (at == std::string::npos) return;
  unsigned long long declared = 0, actual = 0;
  if (std::sscanf(text.c_str() + at, "\ndata : %llu (should be %llu)", &declared, &actual) != 2) return;
  if (declared == 0 || declared >= 0x7FFFFFFFull || actual >= declared) return;
  throw Error(ErrorCategory::audio, path.string() + ": truncated audio (data chunk declares " +
                                        std::to_string(declared) + " bytes, file holds " + std::to_string(actual) + ")");
}

struct SndfileCloser {
  void operator()(SNDFILE* f) const { sf_close(f); }
};

// Returns false when libsndfile does not recognise the format at all.
bool sndfile_decode(const std::filesystem::path& path, Audio& audio) {
  SF_INFO info{};
  std::unique_ptr<SNDFILE, SndfileCloser> file(sf_open(path.c_str(), SFM_READ, &info));
  if (!file) {
    const int code = sf_error(nullptr);
    if (code == SF_ERR_UNRECOGNISED_FORMAT) return false;
    throw Error(ErrorCategory::audio, path.string() + ": corrupt audio (" + sf_strerror(nullptr) + ")");
  }
  reject_truncated_chunk(file.get(), path);
  audio.sample_rate = info.samplerate;
  audio.channels = info.channels;
  if (info.channels <= 0 || info.samplerate <= 0) return true;  // validate() names the problem
  sf_command(file.get(), SFC_SET_NORM_FLOAT, nullptr, SF_TRUE);

  if (info.frames > 0 && info.frames < (sf_count_t(1) << 32))
    audio.samples.reserve(static_cast<std::size_t>(info.frames) * info.channels);
  // Read in blocks: headers of truncated files overstate the frame count.
  constexpr sf_count_t kBlock = 1 << 16;
  std::vector<float> block(static_cast<std::size_t>(kBlock) * info.channels);
  sf_count_t got = 0;
  while ((got = sf_readf_float(file.get(), block.data(), kBlock)) > 0)
    audio.samples.insert(audio.samples.end(), block.begin(), block.begin() + got * info.channels);
  if (sf_error(file.get()) != SF_ERR_NO_ERROR)
    throw Error(ErrorCategory::audio, path.string() + ": corrupt audio data (" + sf_strerror(file.get()) + ")");
  const auto decoded = static_cast<sf_count_t>(audio.frames());
  // Seekable formats with a frame count in the header: fewer frames means truncation.
  if (info.seekable && info.frames > 0 && info.frames != SF_COUNT_MAX && decoded < info.frames)
    throw Error(ErrorCategory::audio, path.string() + ": truncated audio (header says " +
                                          std::to_string(info.frames) + " frames, file holds " +
                                          std::to_string(decoded) + ")");
  return true;
}

}  // namespace

Audio decode_audio(const std::filesystem::path& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw Error(ErrorCategory::audio, path.string() + ": no such file");
  if (!std::filesystem::is_regular_file(status))
    throw Error(ErrorCategory::audio, path.string() + ": not a regular file");
  if (std::filesystem::file_size(path, ec) == 0 || ec)
    throw Error(ErrorCategory::audio, path.string() + ": empty file");

  Audio audio;
  const std::string ext = lower_extension(path);
  if (ext == ".g722") {
    audio = detail::ffmpeg_decode(path, "g722");
  } else if (!sndfile_decode(path, audio)) {
    audio = detail::ffmpeg_decode(path, "");
  }
  validate_audio(audio, path.string());
  return audio;
}

Audio load_mono(const std::filesystem::path& path, int rate) {
  return resample(to_mono(decode_audio(path)), rate);
}

}  // namespace aeval
