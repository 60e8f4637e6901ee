// Decoding: libsndfile first (WAV, FLAC, OGG/Vorbis, Opus, MP3), FFmpeg for
// headerless G.722 and whatever libsndfile does not recognise.
#include <sndfile.h>

#include <cctype>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <algorithm>
#include <memory>
#include <optional>
#include <system_error>

#include "aeval/audio_io.hpp"
#include "aeval/error.hpp"
#include "audio/audio_locator.hpp"
#include "audio/decoder_messages.hpp"
#include "audio/ffmpeg_decode.hpp"
#include "util/sha256.hpp"

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
void reject_truncated_chunk(SNDFILE* file, const std::string& name) {
  char log[8192] = {0};
  sf_command(file, SFC_GET_LOG_INFO, log, sizeof log);
  const std::string text = log;
  const auto at = text.find("\ndata : ");
  if (at == std::string::npos) return;
  unsigned long long declared = 0, actual = 0;
  if (std::sscanf(text.c_str() + at, "\ndata : %llu (should be %llu)", &declared, &actual) != 2) return;
  if (declared == 0 || declared >= 0x7FFFFFFFull || actual >= declared) return;
  throw Error(ErrorCategory::audio, name + ": truncated audio (data chunk declares " +
                                        std::to_string(declared) + " bytes, file holds " + std::to_string(actual) + ")");
}

// Printable ASCII and whitespace only: a transcript, a manifest or an HTML
// error page saved under an audio file's name.
bool looks_like_text(std::string_view bytes) {
  return !bytes.empty() && std::all_of(bytes.begin(), bytes.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return (u >= 0x20 && u < 0x7F) || u == '\n' || u == '\r' || u == '\t';
  });
}

// What a RIFF/WAVE header's fmt chunk declares, in words ("" when the bytes
// hold no such chunk): libsndfile only says that the header is incomplete.
std::string wav_format_claim(std::string_view bytes) {
  const auto u16 = [&](std::size_t at) { return unsigned(uint8_t(bytes[at])) | unsigned(uint8_t(bytes[at + 1])) << 8; };
  const auto u32 = [&](std::size_t at) { return uint32_t(u16(at)) | uint32_t(u16(at + 2)) << 16; };
  if (bytes.size() < 12 || bytes.compare(0, 4, "RIFF") != 0 || bytes.compare(8, 4, "WAVE") != 0) return "";
  for (std::size_t at = 12; at + 8 <= bytes.size();) {
    const uint32_t size = u32(at + 4);
    if (bytes.compare(at, 4, "fmt ") == 0) {
      if (size < 16 || at + 24 > bytes.size()) return "";
      const unsigned channels = u16(at + 10), bits = u16(at + 22);
      return "a rate of " + std::to_string(u32(at + 12)) + " Hz, " + std::to_string(channels) + " channel" +
             (channels == 1 ? "" : "s") + " and " + std::to_string(bits) + "-bit samples";
    }
    at += 8 + std::size_t(size) + (size & 1);
  }
  return "";
}

// Why libsndfile could not open a file it recognised, said so that its owner
// can act: some of its messages name the wrong cause (a text file named
// .mp3 "does not exist or is not a regular file (possibly a pipe?)").
std::string why_unreadable(std::string_view bytes, const std::string& extension, const std::string& message) {
  const std::string start(bytes.substr(0, 256));
  if (looks_like_text(start)) {
    const std::string line = start.substr(0, std::min(start.find_first_of("\r\n"), std::size_t(60)));
    return "a text file, not audio (it begins \"" + line + "\")";
  }
  if (message.find("SF_INFO struct incomplete") != std::string::npos) {
    const std::string claim = wav_format_claim(bytes);
    return claim.empty() ? "its header declares no sample rate, no channels or no sample format"
                         : "its header declares " + claim + ", which make no audio";
  }
  if (message.find("possibly a pipe") != std::string::npos) {
    const std::string& ext = extension;
    return "not " + (ext.empty() ? std::string("audio") : "a " + ext.substr(1) + " file") +
           " libsndfile can read: no valid frame or header where one should be";
  }
  return "corrupt audio (" + message + ")";
}

struct SndfileCloser {
  void operator()(SNDFILE* f) const { sf_close(f); }
};

// libsndfile reads the encoded bytes from memory through its virtual I/O.
struct MemoryStream {
  std::string_view bytes;
  sf_count_t position = 0;
};
sf_count_t stream_length(void* user) { return sf_count_t(static_cast<MemoryStream*>(user)->bytes.size()); }
sf_count_t stream_seek(sf_count_t offset, int whence, void* user) {
  auto& stream = *static_cast<MemoryStream*>(user);
  const sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? stream.position : stream_length(user);
  stream.position = std::clamp<sf_count_t>(base + offset, 0, stream_length(user));
  return stream.position;
}
sf_count_t stream_read(void* destination, sf_count_t count, void* user) {
  auto& stream = *static_cast<MemoryStream*>(user);
  const sf_count_t n = std::clamp<sf_count_t>(count, 0, stream_length(user) - stream.position);
  std::memcpy(destination, stream.bytes.data() + stream.position, static_cast<std::size_t>(n));
  stream.position += n;
  return n;
}
sf_count_t stream_write(const void*, sf_count_t, void*) { return 0; }
sf_count_t stream_tell(void* user) { return static_cast<MemoryStream*>(user)->position; }

// Returns false when libsndfile does not recognise the format at all.
bool sndfile_decode(std::string_view bytes, const std::string& name, const std::string& extension, Audio& audio) {
  SF_INFO info{};
  SF_VIRTUAL_IO io{stream_length, stream_seek, stream_read, stream_write, stream_tell};
  MemoryStream stream{bytes};
  std::unique_ptr<SNDFILE, SndfileCloser> file(sf_open_virtual(&io, SFM_READ, &info, &stream));
  if (!file) {
    const int code = sf_error(nullptr);
    if (code == SF_ERR_UNRECOGNISED_FORMAT) return false;
    throw Error(ErrorCategory::audio, name + ": " + why_unreadable(bytes, extension, sf_strerror(nullptr)));
  }
  reject_truncated_chunk(file.get(), name);
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
    throw Error(ErrorCategory::audio, name + ": corrupt audio data (" + sf_strerror(file.get()) + ")");
  const auto decoded = static_cast<sf_count_t>(audio.frames());
  // Seekable formats with a frame count in the header: fewer frames means truncation.
  if (info.seekable && info.frames > 0 && info.frames != SF_COUNT_MAX && decoded < info.frames)
    throw Error(ErrorCategory::audio, name + ": truncated audio (header says " +
                                          std::to_string(info.frames) + " frames, file holds " +
                                          std::to_string(decoded) + ")");
  return true;
}

}  // namespace

Audio decode_audio_bytes(std::string_view bytes, const std::string& name, const std::string& format_hint) {
  if (bytes.empty()) throw Error(ErrorCategory::audio, name + ": empty audio");
  Audio audio;
  const std::string ext = lower_extension(format_hint);
  if (ext == ".g722") {
    audio = detail::ffmpeg_decode(bytes, name, "g722");
  } else {
    // mpg123, libsndfile's MP3 decoder, prints its notes on a damaged stream to stderr.
    const bool mpeg = ext == ".mp3" || ext == ".mp2" || ext == ".mpga" || bytes.starts_with("ID3");
    std::optional<detail::CapturedStderr> notes;
    if (mpeg) notes.emplace(name, "mpg123");
    const bool decoded = sndfile_decode(bytes, name, ext, audio);
    notes.reset();
    if (!decoded && looks_like_text(bytes.substr(0, 256)))  // FFmpeg would probe it as subtitles
      throw Error(ErrorCategory::audio, name + ": " + why_unreadable(bytes, ext, ""));
    if (!decoded) audio = detail::ffmpeg_decode(bytes, name, "");
  }
  validate_audio(audio, name);
  return audio;
}

Audio decode_audio(const std::filesystem::path& path) {
  const detail::AudioLocator locator = detail::parse_audio_locator(path);
  const detail::AudioBytes bytes = detail::read_locator_bytes(locator);
  // A clip stored in a container is probed: its container's extension says nothing of it.
  const bool whole_file = locator.start || locator.fragment.empty();
  Audio audio = decode_audio_bytes(*bytes, path.string(), whole_file ? locator.file.string() : std::string());
  if (!locator.start) return audio;
  // t=START,END: the frames from round(START·rate) up to round(END·rate), the file's end at most.
  const auto first = static_cast<std::size_t>(std::llround(*locator.start * audio.sample_rate));
  const std::size_t last = locator.end ? static_cast<std::size_t>(std::llround(*locator.end * audio.sample_rate))
                                       : audio.frames();
  if (first >= audio.frames())
    throw Error(ErrorCategory::audio, path.string() + ": starts after the end of the file (" +
                                          std::to_string(audio.seconds()) + " s)");
  const auto channels = static_cast<std::size_t>(audio.channels);
  audio.samples = std::vector<float>(audio.samples.begin() + std::ptrdiff_t(first * channels),
                                     audio.samples.begin() + std::ptrdiff_t(std::min(last, audio.frames()) * channels));
  validate_audio(audio, path.string());
  return audio;
}

std::string audio_sha256(const std::filesystem::path& path) {
  const detail::AudioLocator locator = detail::parse_audio_locator(path);
  const std::string digest = sha256_hex(*detail::read_locator_bytes(locator));
  // A slice is its file's bytes and the range taken from them.
  return locator.start ? sha256_hex(digest + "#" + locator.fragment) : digest;
}

Audio load_mono(const std::filesystem::path& path, int rate) {
  const Audio decoded = to_mono(decode_audio(path));
  Audio audio = resample(decoded, rate);
  if (audio.samples.empty())  // a model would be handed no audio at all
    throw Error(ErrorCategory::audio, path.string() + ": too short: " + std::to_string(decoded.frames()) +
                                          " frame(s) at " + std::to_string(decoded.sample_rate) +
                                          " Hz make no sample at " + std::to_string(rate) + " Hz");
  // Finite but absurd values (float files holding 1e38) overflow when channels are averaged or resampled.
  if (!std::all_of(audio.samples.begin(), audio.samples.end(), [](float x) { return std::isfinite(x); }))
    throw Error(ErrorCategory::audio, path.string() + ": sample values too large to downmix or resample (not audio)");
  return audio;
}

}  // namespace aeval
