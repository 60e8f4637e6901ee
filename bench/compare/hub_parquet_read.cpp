// Reading audio from a Hub-style Parquet split, against decoding the same
// clips from memory. The split holds the Asterisk prompts as 16-bit WAV bytes
// (struct of bytes and path; asked for 100 rows per row group as the `datasets`
// library writes audio, but DuckDB writes at least 2,048: bench/README.md),
// repeated SCALE times, in the cache layout of a `huggingface`
// entry pinned to a commit, so loading it never asks the network.
//
//   aeval_bench_parquet prepare WORK SCALE   writes the split (once per scale)
//   aeval_bench_parquet read WORK SCALE      loads the entry, decodes every clip in order
//   aeval_bench_parquet decode WORK SCALE    decodes the same clips from bytes in memory
// Each prints one line: samples, seconds, samples/s, audio x real time, MB/s, peak RSS.
//   aeval_bench_parquet windows FILE KEEP    DuckDB's reading alone: the audio column of FILE (100-row
//     groups, as hub_parquet_run.sh writes it) read a row group at a time as the clip cache asks for it,
//     the last KEEP windows' data chunks held; prints the peak RSS with DuckDB started and after reading.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "aeval/audio_io.hpp"
#include "datasets/dataset.hpp"
#include "datasets/parquet_clips.hpp"
#include "datasets/table_reader.hpp"
#include "registry/registry.hpp"
#include "support/parquet_writer.hpp"

namespace {

namespace fs = std::filesystem;
constexpr const char* kCommit = "0123456789abcdef0123456789abcdef01234567";

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

long peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024;
}

fs::path split_dir(const fs::path& work, int scale) { return work / ("x" + std::to_string(scale)); }

// The Asterisk prompts of the quickstart, as 16 kHz PCM16 WAV files.
void write_clips(const fs::path& work) {
  if (fs::exists(work / "wav")) return;
  fs::create_directories(work / "wav.tmp");
  const aeval::registry::Registry registry({aeval::registry::builtin_registry_dir()});
  for (const auto& s : aeval::datasets::load_dataset(registry, "asterisk-en").samples) {
    std::string name = s.id;  // ids name subfolders ("dictate/both_help")
    std::replace(name.begin(), name.end(), '/', '_');
    aeval::write_wav(work / "wav.tmp" / (name + ".wav"), aeval::decode_audio(s.audio));
  }
  fs::rename(work / "wav.tmp", work / "wav");
}

void prepare(const fs::path& work, int scale) {
  write_clips(work);
  const fs::path dir = split_dir(work, scale);
  const fs::path cache = dir / "cache" / "aeval" / "datasets" / "hub" / "bench--asterisk";
  const fs::path parquet = cache / "snapshots" / kCommit / "data" / "test-00000-of-00001.parquet";
  fs::create_directories(parquet.parent_path());
  aeval::testing::write_parquet(
      "SELECT regexp_extract(filename, '([^/]+)\\.wav$', 1) || '-' || copy AS id, 'words' AS text, "
      "{'bytes': content, 'path': regexp_extract(filename, '[^/]+$')} AS audio "
      "FROM read_blob(" + aeval::datasets::TableReader::literal((work / "wav" / "*.wav").string()) +
          ") CROSS JOIN range(" + std::to_string(scale) + ") t(copy) ORDER BY copy, filename",
      parquet, 100);
  fs::create_directories(cache / "snapshots" / kCommit / ".aeval" / "default");
  std::ofstream(cache / "snapshots" / kCommit / ".aeval" / "default" / "test.json")
      << R"({"source": "repository", "source_commit": ")" << kCommit
      << R"(", "files": [{"path": "data/test-00000-of-00001.parquet", "size": )" << fs::file_size(parquet)
      << R"(, "sha256": ""}]})" << "\n";
  fs::create_directories(dir / "registry" / "datasets");
  std::ofstream(dir / "registry" / "datasets" / "bench.yaml")
      << "bench-asterisk:\n  class: huggingface\n  args:\n    repo: bench/asterisk\n    revision: " << kCommit << "\n";
  std::printf("prepared %s: %.1f MB\n", parquet.c_str(), double(fs::file_size(parquet)) / 1e6);
}

void report(const char* what, std::size_t samples, double audio_seconds, std::uint64_t bytes, double seconds) {
  std::printf("%s\t%zu samples\t%.2f s\t%.0f samples/s\t%.0fx real time\t%.0f MB/s\tpeak RSS %ld MB\n", what, samples,
              seconds, double(samples) / seconds, audio_seconds / seconds, double(bytes) / 1e6 / seconds, peak_rss_mb());
}

void read(const fs::path& work, int scale) {
  const fs::path dir = split_dir(work, scale);
  setenv("XDG_CACHE_HOME", (dir / "cache").c_str(), 1);
  const auto start = std::chrono::steady_clock::now();
  const aeval::registry::Registry registry({aeval::registry::builtin_registry_dir(), dir / "registry"});
  const auto dataset = aeval::datasets::load_dataset(registry, "bench-asterisk");
  const double started = seconds_since(start);
  std::printf("start\t%zu samples\t%.3f s to resolve and list the cached split\tpeak RSS %ld MB\n", dataset.samples.size(),
              started, peak_rss_mb());
  const auto decoding = std::chrono::steady_clock::now();
  double audio_seconds = 0;
  std::uint64_t bytes = 0;
  for (const auto& s : dataset.samples) {
    const auto audio = aeval::decode_audio(s.audio);
    audio_seconds += double(audio.samples.size()) / audio.sample_rate;
    bytes += 44 + 2 * audio.samples.size();
  }
  report("parquet", dataset.samples.size(), audio_seconds, bytes, seconds_since(decoding));
}

void decode_only(const fs::path& work, int scale) {
  std::vector<std::pair<std::string, std::string>> clips;  // name, bytes
  for (const auto& entry : fs::directory_iterator(work / "wav")) {
    std::ifstream in(entry.path(), std::ios::binary);
    clips.emplace_back(entry.path().filename().string(), std::string(std::istreambuf_iterator<char>(in), {}));
  }
  const auto start = std::chrono::steady_clock::now();
  double audio_seconds = 0;
  std::uint64_t bytes = 0;
  for (int copy = 0; copy < scale; ++copy)
    for (const auto& [name, data] : clips) {
      const auto audio = aeval::decode_audio_bytes(data, name);
      audio_seconds += double(audio.samples.size()) / audio.sample_rate;
      bytes += data.size();
    }
  report("memory", clips.size() * std::size_t(scale), audio_seconds, bytes, seconds_since(start));
}

// What DuckDB costs in memory to read a split's audio a window at a time, without the rest of a run.
void windows(const fs::path& file, int keep) {
  const auto table = aeval::datasets::TableReader::parquet({file});
  const long started = peak_rss_mb();
  const std::uint64_t rows = table.row_count();
  std::vector<std::shared_ptr<const void>> held;  // the last `keep` windows' chunks
  std::uint64_t bytes = 0;
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t first = 0; first < rows; first += 100) {
    std::shared_ptr<const void> chunk;
    table.query_views(aeval::datasets::parquet_window_query(file, "audio.bytes", first, 100),
                      [&](const aeval::datasets::TableRowView& r) {
                        bytes += r.values[0] ? r.values[0]->size() : 0;
                        chunk = r.chunk;
                      });
    if (keep == 0) continue;
    if (held.size() == std::size_t(keep)) held.erase(held.begin());
    held.push_back(std::move(chunk));
  }
  std::printf("windows\t%llu rows, %.1f MB of audio\tkeeping %d\t%.2f s\tpeak RSS %ld MB started, %ld MB after reading\n",
              static_cast<unsigned long long>(rows), double(bytes) / 1e6, keep, seconds_since(start), started,
              peak_rss_mb());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: aeval_bench_parquet prepare|read|decode WORK SCALE, or windows FILE KEEP\n");
    return 2;
  }
  const std::string mode = argv[1];
  const fs::path work = argv[2];
  const int scale = std::atoi(argv[3]);
  if (mode == "prepare") prepare(work, scale);
  else if (mode == "read") read(work, scale);
  else if (mode == "decode") decode_only(work, scale);
  else if (mode == "windows") windows(work, scale);
  else return 2;
  return 0;
}
