// FFmpeg decoding for what libsndfile cannot read (raw G.722 above all).
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/log.h>
}

#include <algorithm>
#include <cstdarg>
#include <cstring>
#include <memory>
#include <mutex>

#include "aeval/error.hpp"
#include "audio/decoder_messages.hpp"
#include "audio/ffmpeg_decode.hpp"

namespace aeval::detail {

namespace {

std::string av_message(int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(code, buf, sizeof buf);
  return buf;
}

struct FormatCloser {
  void operator()(AVFormatContext* c) const { avformat_close_input(&c); }
};
struct CodecFreer {
  void operator()(AVCodecContext* c) const { avcodec_free_context(&c); }
};
struct PacketFreer {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct FrameFreer {
  void operator()(AVFrame* f) const { av_frame_free(&f); }
};

float sample_at(const AVFrame* frame, AVSampleFormat fmt, int channels, int ch, int i) {
  const bool planar = av_sample_fmt_is_planar(fmt);
  const int plane = planar ? ch : 0;
  const int index = planar ? i : i * channels + ch;
  const uint8_t* data = frame->extended_data[plane];
  switch (av_get_packed_sample_fmt(fmt)) {
    case AV_SAMPLE_FMT_U8: return (float(data[index]) - 128.0f) / 128.0f;
    case AV_SAMPLE_FMT_S16: return float(reinterpret_cast<const int16_t*>(data)[index]) / 32768.0f;
    case AV_SAMPLE_FMT_S32: return float(double(reinterpret_cast<const int32_t*>(data)[index]) / 2147483648.0);
    case AV_SAMPLE_FMT_S64: return float(double(reinterpret_cast<const int64_t*>(data)[index]) / 9223372036854775808.0);
    case AV_SAMPLE_FMT_FLT: return reinterpret_cast<const float*>(data)[index];
    case AV_SAMPLE_FMT_DBL: return float(reinterpret_cast<const double*>(data)[index]);
    default: throw Error(ErrorCategory::audio, "unsupported FFmpeg sample format");
  }
}

// FFmpeg's demuxers for audio that libsndfile does not read (its names).
constexpr const char* kAudioContainers = "g722,mov,matroska,asf,aac,amr,ac3,eac3,mp3,wav,w64,caf,aiff,wv,ape,tta,dts";

// The audio this thread is decoding, for FFmpeg's messages about it.
thread_local const std::string* decoding = nullptr;

// FFmpeg reads the encoded bytes from memory through these callbacks.
struct MemoryStream {
  std::string_view bytes;
  int64_t position = 0;
};
int read_stream(void* user, uint8_t* buffer, int size) {
  auto& stream = *static_cast<MemoryStream*>(user);
  const auto left = int64_t(stream.bytes.size()) - stream.position;
  if (left <= 0) return AVERROR_EOF;
  const int n = int(std::min<int64_t>(size, left));
  std::memcpy(buffer, stream.bytes.data() + stream.position, std::size_t(n));
  stream.position += n;
  return n;
}
int64_t seek_stream(void* user, int64_t offset, int whence) {
  auto& stream = *static_cast<MemoryStream*>(user);
  const auto size = int64_t(stream.bytes.size());
  if (whence & AVSEEK_SIZE) return size;
  const int64_t base = (whence & 3) == SEEK_SET ? 0 : (whence & 3) == SEEK_CUR ? stream.position : size;
  if (base + offset < 0 || base + offset > size) return -1;
  return stream.position = base + offset;
}
struct IoFreer {
  void operator()(AVIOContext* io) const {
    av_freep(&io->buffer);
    avio_context_free(&io);
  }
};

// FFmpeg's errors go to the decoder message sink (a run's
// run.log), named after the file; nothing reaches the terminal.
void forward_message(void* context, int level, const char* format, va_list arguments) {
  // Errors only: raw G.722 draws a warning on every file (a duration estimated from the bitrate).
  if (level > AV_LOG_ERROR || !decoding || !has_decoder_message_sink()) return;
  char line[1024];
  int print_prefix = 0;  // the prefix names a memory address
  av_log_format_line2(context, level, format, arguments, line, sizeof line, &print_prefix);
  std::string message = line;
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
  if (!message.empty()) decoder_message(*decoding, "ffmpeg", message);
}

}  // namespace

Audio ffmpeg_decode(std::string_view bytes, const std::string& name, const std::string& forced_format) {
  static std::once_flag logging;
  std::call_once(logging, [] { av_log_set_callback(forward_message); });
  decoding = &name;
  struct Done {
    ~Done() { decoding = nullptr; }
  } done;
  const std::string& where = name;
  const AVInputFormat* input_format = nullptr;
  if (!forced_format.empty()) {
    input_format = av_find_input_format(forced_format.c_str());
    if (!input_format)
      throw Error(ErrorCategory::audio, where + ": this FFmpeg has no '" + forced_format + "' demuxer");
  }

  // Only the audio containers libsndfile leaves to FFmpeg: probing any of its
  // hundreds of demuxers exposes each one's bugs (Debian 12's .vqf demuxer
  // leaks a buffer of whatever size a 174-byte header claims).
  AVDictionary* options = nullptr;
  av_dict_set(&options, "format_whitelist", kAudioContainers, 0);
  constexpr int kBufferSize = 1 << 16;
  MemoryStream stream{bytes};
  auto* buffer = static_cast<unsigned char*>(av_malloc(kBufferSize));
  if (!buffer) throw Error(ErrorCategory::internal, where + ": out of memory");
  std::unique_ptr<AVIOContext, IoFreer> io(
      avio_alloc_context(buffer, kBufferSize, 0, &stream, read_stream, nullptr, seek_stream));
  if (!io) {
    av_free(buffer);
    throw Error(ErrorCategory::internal, where + ": out of memory");
  }
  AVFormatContext* raw_format = avformat_alloc_context();
  if (!raw_format) throw Error(ErrorCategory::internal, where + ": out of memory");
  raw_format->pb = io.get();
  raw_format->flags |= AVFMT_FLAG_CUSTOM_IO;
  int rc = avformat_open_input(&raw_format, where.c_str(), input_format, &options);  // frees it on failure
  av_dict_free(&options);
  if (rc < 0)
    throw Error(ErrorCategory::audio, where + ": not audio aeval can read: neither libsndfile nor FFmpeg (" +
                                          kAudioContainers + ") opens it (" + av_message(rc) + ")");
  std::unique_ptr<AVFormatContext, FormatCloser> format(raw_format);
  if ((rc = avformat_find_stream_info(format.get(), nullptr)) < 0)
    throw Error(ErrorCategory::audio, where + ": cannot read stream info (" + av_message(rc) + ")");

  const AVCodec* codec = nullptr;
  const int stream_index = av_find_best_stream(format.get(), AVMEDIA_TYPE_AUDIO, -1, -1, &codec, 0);
  if (stream_index < 0 || !codec)
    throw Error(ErrorCategory::audio, where + ": no decodable audio stream");

  std::unique_ptr<AVCodecContext, CodecFreer> decoder(avcodec_alloc_context3(codec));
  avcodec_parameters_to_context(decoder.get(), format->streams[stream_index]->codecpar);
  if ((rc = avcodec_open2(decoder.get(), codec, nullptr)) < 0)
    throw Error(ErrorCategory::audio, where + ": cannot open " + codec->name + " decoder (" + av_message(rc) + ")");

  Audio audio;
  audio.sample_rate = decoder->sample_rate;
  audio.channels = decoder->ch_layout.nb_channels;
  std::unique_ptr<AVPacket, PacketFreer> packet(av_packet_alloc());
  std::unique_ptr<AVFrame, FrameFreer> frame(av_frame_alloc());

  auto drain = [&]() {
    while ((rc = avcodec_receive_frame(decoder.get(), frame.get())) >= 0) {
      const int channels = frame->ch_layout.nb_channels;
      if (channels != audio.channels || frame->sample_rate != audio.sample_rate)
        throw Error(ErrorCategory::audio, where + ": channel count or rate changes mid-stream");
      const auto fmt = static_cast<AVSampleFormat>(frame->format);
      for (int i = 0; i < frame->nb_samples; ++i)
        for (int c = 0; c < channels; ++c) audio.samples.push_back(sample_at(frame.get(), fmt, channels, c, i));
      av_frame_unref(frame.get());
    }
    if (rc != AVERROR(EAGAIN) && rc != AVERROR_EOF)
      throw Error(ErrorCategory::audio, where + ": corrupt audio data (" + av_message(rc) + ")");
  };

  while ((rc = av_read_frame(format.get(), packet.get())) >= 0) {
    if (packet->stream_index == stream_index) {
      const int sent = avcodec_send_packet(decoder.get(), packet.get());
      av_packet_unref(packet.get());
      if (sent < 0) throw Error(ErrorCategory::audio, where + ": corrupt audio data (" + av_message(sent) + ")");
      drain();
    } else {
      av_packet_unref(packet.get());
    }
  }
  if (rc != AVERROR_EOF)
    throw Error(ErrorCategory::audio, where + ": read error (" + av_message(rc) + ")");
  avcodec_send_packet(decoder.get(), nullptr);
  drain();
  return audio;
}

}  // namespace aeval::detail
