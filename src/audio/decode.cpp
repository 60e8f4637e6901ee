// Decoding: libsndfile first (WAV, FLAC, OGG/Vorbis, Opus, MP3), FFmpeg for
// headerless G.722 and whatever libsndfile does not recognise.
#include <sndfile.h>

#include <cctype>
#include <cstdio>
#include <algorithm>
#include <memory>
#include <optional>
#include <system_error>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "audio/decoder_messages.hpp"
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

// The first bytes of a file, to say what it is when no decoder can read it.
std::string first_bytes(const std::filesystem::path& path, std::size_t count) {
  std::string bytes(count, '\0');
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return "";
  bytes.resize(std::fread(bytes.data(), 1, count, f));
  std::fclose(f);
  return bytes;
}

// Printable ASCII and whitespace only: a transcript, a manifest or an HTML
// error page saved under an audio file's name.
bool looks_like_text(const std::string& bytes) {
  return !bytes.empty() && std::all_of(bytes.begin(), bytes.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u >= 0x20 && u < 0x7F) || u == '\n' || u == '\r' || u == '\t';
  });
}

// Why libsndfile could not open a file it recognised, said so that its owner
// can act: some of its messages name the wrong cause (a text file named
// .mp3 "does not exist or is not a regular file (possibly a pipe?)").
std::string why_unreadable(const std::filesystem::path& path, const std::string& message) {
  const std::string start = first_bytes(path, 256);
  if (looks_like_text(start)) {
    const std::string line = start.substr(0, std::min(start.find_first_of("\r\n"), std::size_t(60)));
    return "a text file, not audio (it begins \"" + line + "\")";
  }
  if (message.find("SF_INFO struct incomplete") != std::string::npos)
    return "its header declares no sample rate, no channels or no sample format (a rate of 0 Hz, say)";
  if (message.find("possibly a pipe") != std::string::npos) {
    const std::string ext = lower_extension(path);
    return "not " + (ext.empty() ? std::string("audio") : "a " + ext.substr(1) + " file") +
           " libsndfile can read: no valid frame or header where one should be";
  }
  return "corrupt audio (" + message + ")";
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
    throw Error(ErrorCategory::audio, path.string() + ": " + why_unreadable(path, sf_strerror(nullptr)));
  }
  reject_truncated_chunk(file.get(), path);
  audio.sample_rate = info.samplerate;
  audio.channels = info.channels;
  if (info.channels <= 0 || info.samplerate <= 0) return true;  // validate() names the problem
  sf_command(file.get(), SFC_SET_NORM_FLOAT, nullptr, SF_TRUE);

  // The header's frame count is a claim, not a size: reserve at most about
  // ten minutes' worth up front and let a longer file grow the buffer.
  constexpr sf_count_t kReserveValues = sf_count_t(1) << 23;
  if (info.frames > 0)
    audio.samples.reserve(static_cast<std::size_t>(std::min(info.frames, kReserveValues / info.channels + 1)) *
                          static_cast<std::size_t>(info.channels));
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
  } else {
    // mpg123, libsndfile's MP3 decoder, prints its notes on a damaged stream to stderr.
    const bool mpeg = ext == ".mp3" || ext == ".mp2" || ext == ".mpga" || first_bytes(path, 3) == "ID3";
    std::optional<detail::CapturedStderr> notes;
    if (mpeg) notes.emplace(path, "mpg123");
    const bool decoded = sndfile_decode(path, audio);
    notes.reset();
    if (!decoded && looks_like_text(first_bytes(path, 256)))  // FFmpeg would probe it as subtitles
      throw Error(ErrorCategory::audio, path.string() + ": " + why_unreadable(path, ""));
    if (!decoded) audio = detail::ffmpeg_decode(path, "");
  }
  validate_audio(audio, path.string());
  return audio;
}

Audio load_mono(const std::filesystem::path& path, int rate) {
  const Audio decoded = to_mono(decode_audio(path));
  Audio audio = resample(decoded, rate);
  if (audio.samples.empty())  // a model would be handed no audio at all
    throw Error(ErrorCategory::audio, path.string() + ": too short: " + std::to_string(decoded.frames()) +
                                          " frame(s) at " + std::to_string(decoded.sample_rate) +
                                          " Hz make no sample at " + std::to_string(rate) + " Hz");
  return audio;
}

}  // namespace aeval
