#include "datasets/parquet_clips.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "aeval/error.hpp"
#include "audio/audio_locator.hpp"
#include "datasets/table_reader.hpp"

namespace aeval::datasets {

namespace {

// A window's rows stay under this many bytes (of the audio column, as
// stored) unless one row alone is larger; the cache keeps at most
// kCachedBytes of windows, and at least two.
constexpr std::uint64_t kWindowBytes = 64ull << 20;
constexpr std::uint64_t kCachedBytes = 16ull << 20;

struct Window {
  std::uint64_t first = 0, count = 0;
};

struct CachedWindow {
  std::string key;  // file, column, first row
  std::vector<detail::AudioBytes> clips;  // null: the row stores none
  std::uint64_t bytes = 0;
};

class ClipCache {
 public:
  detail::AudioBytes read(const std::filesystem::path& file, const std::string& fragment) {
    const auto [row, column] = parse(file, fragment);
    const std::lock_guard lock(mutex_);  // DuckDB scans in parallel on its own
    const Window window = window_of(file, column, row);
    const std::string key = fmt::format("{}\n{}\n{}", file.string(), column, window.first);
    auto hit = std::find_if(windows_.begin(), windows_.end(), [&](const CachedWindow& w) { return w.key == key; });
    if (hit == windows_.end()) {
      windows_.push_front(load(file, column, window, key));
      hit = windows_.begin();
      evict();
    } else {
      windows_.splice(windows_.begin(), windows_, hit);
      hit = windows_.begin();
    }
    const auto& clip = hit->clips.at(row - window.first);
    if (!clip)
      throw Error(ErrorCategory::audio,
                  fmt::format("{}#{}: the row stores no audio bytes (NULL)", file.string(), fragment));
    return clip;
  }

 private:
  // Digits only, within 64 bits; anything else names no row.
  static std::optional<std::uint64_t> row_number(const std::string& digits) {
    std::uint64_t number = 0;
    const char* end = digits.data() + digits.size();
    const auto [stop, error] = std::from_chars(digits.data(), end, number);
    if (digits.empty() || stop != end || error != std::errc{}) return std::nullopt;
    return number;
  }

  static std::pair<std::uint64_t, std::string> parse(const std::filesystem::path& file, const std::string& fragment) {
    std::optional<std::uint64_t> row;
    std::string column;
    std::size_t at = 0;
    while (at <= fragment.size()) {
      const std::size_t end = std::min(fragment.find('&', at), fragment.size());
      const std::string part = fragment.substr(at, end - at);
      if (part.rfind("row=", 0) == 0)
        row = row_number(part.substr(4));
      else if (part.rfind("column=", 0) == 0)
        column = part.substr(7);
      at = end + 1;
    }
    if (!row || column.empty())
      throw Error(ErrorCategory::audio,
                  fmt::format("{}#{}: a Parquet clip is named FILE#row=N&column=NAME", file.string(), fragment));
    return {*row, column};
  }

  // The window holding `row`: its row group, or the slice of it whose stored
  // audio stays under kWindowBytes.
  Window window_of(const std::filesystem::path& file, const std::string& column, std::uint64_t row) {
    auto& groups = groups_[file.string() + "\n" + column];
    if (groups.empty()) {
      const std::string sql = fmt::format(
          "SELECT CAST(row_group_num_rows AS VARCHAR), CAST(sum(total_uncompressed_size) AS VARCHAR) "
          "FROM parquet_metadata({}) WHERE path_in_schema = {} OR starts_with(path_in_schema, {}) "
          "GROUP BY row_group_id, row_group_num_rows ORDER BY row_group_id",
          TableReader::literal(file.string()), TableReader::literal(column), TableReader::literal(column + ", "));
      reader(file).query(sql, [&](TableRow& r) {
        groups.push_back({std::stoull(r[0].value_or("0")), std::stoull(r[1].value_or("0"))});
      });
      if (groups.empty())
        throw Error(ErrorCategory::audio, fmt::format("{}: no column '{}' in this Parquet file", file.string(), column));
    }
    std::uint64_t first = 0;
    for (const auto& [rows, bytes] : groups) {
      if (row < first + rows) {
        const std::uint64_t per_window = std::max<std::uint64_t>(1, bytes > kWindowBytes ? rows * kWindowBytes / bytes : rows);
        const std::uint64_t start = first + (row - first) / per_window * per_window;
        return {start, std::min(per_window, first + rows - start)};
      }
      first += rows;
    }
    throw Error(ErrorCategory::audio, fmt::format("{}: no row {} (the file has {} rows)", file.string(), row, first));
  }

  CachedWindow load(const std::filesystem::path& file, const std::string& column, const Window& window,
                    const std::string& key) {
    const TableReader& table = reader(file);
    const TableColumn* found = table.column(column);
    if (!found) throw Error(ErrorCategory::audio, fmt::format("{}: no column '{}'", file.string(), column));
    const bool is_struct = found->type.rfind("STRUCT", 0) == 0;
    const std::string bytes = is_struct ? TableReader::quoted(column) + ".bytes" : TableReader::quoted(column);
    CachedWindow loaded{key, {}, 0};
    loaded.clips.reserve(window.count);
    // A scan keeps the file's order (no ORDER BY: sorting would copy every clip once more); the row
    // numbers are checked all the same.
    table.query(fmt::format("SELECT CAST({} AS BLOB), CAST(file_row_number AS VARCHAR) FROM read_parquet({}, "
                            "file_row_number = true) WHERE file_row_number >= {} AND file_row_number < {}",
                            bytes, TableReader::literal(file.string()), window.first, window.first + window.count),
                [&](TableRow& r) {
                  if (r[1] != std::to_string(window.first + loaded.clips.size()))
                    throw Error(ErrorCategory::internal,
                                fmt::format("{}: the rows of a window came out of order", file.string()));
                  loaded.bytes += r[0] ? r[0]->size() : 0;
                  loaded.clips.push_back(r[0] ? std::make_shared<const std::string>(std::move(*r[0])) : nullptr);
                });
    if (loaded.clips.size() != window.count)
      throw Error(ErrorCategory::audio, fmt::format("{}: rows {}..{} could not all be read", file.string(),
                                                    window.first, window.first + window.count - 1));
    return loaded;
  }

  const TableReader& reader(const std::filesystem::path& file) {
    auto& r = readers_[file.string()];
    if (!r) r = std::make_unique<TableReader>(TableReader::parquet({file}));
    return *r;
  }

  void evict() {
    std::uint64_t total = 0;
    for (const auto& w : windows_) total += w.bytes;
    while (windows_.size() > 2 && total > kCachedBytes) {
      total -= windows_.back().bytes;
      windows_.pop_back();
    }
  }

  std::mutex mutex_;
  std::map<std::string, std::unique_ptr<TableReader>> readers_;
  std::list<CachedWindow> windows_;  // most recently used first
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> groups_;  // rows, bytes per row group
};

ClipCache& clip_cache() {
  static ClipCache cache;
  return cache;
}

[[maybe_unused]] const bool kRegistered = [] {
  detail::register_clip_reader(".parquet", [](const std::filesystem::path& file, const std::string& fragment) {
    return clip_cache().read(file, fragment);
  });
  return true;
}();

}  // namespace

std::string parquet_clip_locator(const std::filesystem::path& file, std::uint64_t row, const std::string& column) {
  return fmt::format("{}#row={}&column={}", file.string(), row, column);
}

}  // namespace aeval::datasets
