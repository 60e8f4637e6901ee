#include "datasets/parquet_clips.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <future>
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

// A window is a row group, or a block of it as large as DuckDB's vector (2,048 rows): DuckDB reads a column that
// many rows at a time whatever a query's filter asks for, so a smaller slice would cost no less memory and make
// DuckDB read the block once per slice. The cache keeps at most kCachedBytes of windows, and at least the two
// that samples are reading (the one being started and a lagging one) and the next one when it is read ahead,
// which it is when it holds at most kReadAheadBytes.
constexpr std::uint64_t kCachedBytes = 16ull << 20;
constexpr std::uint64_t kReadAheadBytes = 32ull << 20;

struct Window {
  std::uint64_t first = 0, count = 0, bytes = 0;  // bytes: of the audio column, as stored
};

// A window's clips as DuckDB returned them: views into the data chunks they keep.
struct WindowClips {
  std::vector<std::shared_ptr<const void>> chunks;
  std::vector<std::optional<std::string_view>> clips;  // nullopt: the row stores none
};

struct CachedWindow {
  std::string key;  // file, column, first row
  std::shared_future<std::shared_ptr<const WindowClips>> clips;
  std::uint64_t bytes = 0;
  bool read = false;  // a sample has asked for one of its rows
};

// Windows are read off the caller's thread, so a sample whose window is
// cached never waits for another window's read, and the window after the one
// a run has reached is read while its samples run.
class ClipCache {
 public:
  detail::AudioBytes read(const std::filesystem::path& file, const std::string& fragment) {
    const auto [row, column] = parse(file, fragment);
    std::list<CachedWindow> evicted;  // dropped after the lock: one still being read is waited for
    std::unique_lock lock(mutex_);
    const Window window = window_of(file, column, row);
    CachedWindow& entry = find_or_load(file, column, window);
    const auto clips = entry.clips;
    const std::string key = entry.key;
    if (!entry.read) {
      entry.read = true;
      if (const auto next = next_window(file, column, window); next && next->bytes <= kReadAheadBytes)
        find_or_load(file, column, *next);
    }
    evict(evicted);
    lock.unlock();
    const std::shared_ptr<const WindowClips> rows = rows_of(clips, key);
    const auto& clip = rows->clips.at(row - window.first);
    if (!clip)
      throw Error(ErrorCategory::audio,
                  fmt::format("{}#{}: the row stores no audio bytes (NULL)", file.string(), fragment));
    return detail::AudioBytes(rows, &*clip);  // shares the window, copies nothing
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

  // The window holding `row`: its row group, or the block of DuckDB's vector size within it.
  Window window_of(const std::filesystem::path& file, const std::string& column, std::uint64_t row) {
    auto& groups = groups_[file.string() + "\n" + column];
    if (groups.empty()) {
      const std::string sql = fmt::format(
          "SELECT CAST(row_group_num_rows AS VARCHAR), CAST(sum(total_uncompressed_size) AS VARCHAR) "
          "FROM parquet_metadata({}) WHERE path_in_schema = {} OR starts_with(path_in_schema, {}) "
          "GROUP BY row_group_id, row_group_num_rows ORDER BY row_group_id",
          TableReader::literal(file.string()), TableReader::literal(column), TableReader::literal(column + ", "));
      const std::lock_guard duckdb(duckdb_mutex_);
      reader(file).query(sql, [&](TableRow& r) {
        groups.push_back({std::stoull(r[0].value_or("0")), std::stoull(r[1].value_or("0"))});
      });
      if (groups.empty())
        throw Error(ErrorCategory::audio, fmt::format("{}: no column '{}' in this Parquet file", file.string(), column));
    }
    std::uint64_t first = 0;
    for (const auto& [rows, bytes] : groups) {
      if (row < first + rows) {
        const std::uint64_t per_window = std::min(rows, TableReader::rows_per_read());
        const std::uint64_t start = first + (row - first) / per_window * per_window;
        const std::uint64_t count = std::min(per_window, first + rows - start);
        return {start, count, bytes * count / rows};
      }
      first += rows;
    }
    throw Error(ErrorCategory::audio, fmt::format("{}: no row {} (the file has {} rows)", file.string(), row, first));
  }

  // The window after `window`, if the file has more rows.
  std::optional<Window> next_window(const std::filesystem::path& file, const std::string& column, const Window& window) {
    std::uint64_t rows = 0;
    for (const auto& group : groups_[file.string() + "\n" + column]) rows += group.first;
    if (window.first + window.count >= rows) return std::nullopt;
    return window_of(file, column, window.first + window.count);
  }

  // A window's rows, once read. A read that failed is forgotten, so that a later sample reads the file again.
  std::shared_ptr<const WindowClips> rows_of(const std::shared_future<std::shared_ptr<const WindowClips>>& clips,
                                             const std::string& key) {
    try {
      return clips.get();
    } catch (...) {
      std::list<CachedWindow> failed;
      const std::lock_guard lock(mutex_);
      const auto entry = std::find_if(windows_.begin(), windows_.end(), [&](const CachedWindow& w) { return w.key == key; });
      if (entry != windows_.end()) failed.splice(failed.begin(), windows_, entry);
      throw;
    }
  }

  // The cached window, or a new entry whose rows are being read on a thread of their own.
  CachedWindow& find_or_load(const std::filesystem::path& file, const std::string& column, const Window& window) {
    const std::string key = fmt::format("{}\n{}\n{}", file.string(), column, window.first);
    auto hit = std::find_if(windows_.begin(), windows_.end(), [&](const CachedWindow& w) { return w.key == key; });
    if (hit != windows_.end()) {
      windows_.splice(windows_.begin(), windows_, hit);
    } else {
      auto clips = std::async(std::launch::async, [this, file, column, window] {
        const std::lock_guard duckdb(duckdb_mutex_);  // one connection: its queries run one at a time
        return std::make_shared<const WindowClips>(load(file, column, window));
      });
      windows_.push_front({key, clips.share(), window.bytes, false});
    }
    return windows_.front();
  }

  WindowClips load(const std::filesystem::path& file, const std::string& column, const Window& window) {
    const TableReader& table = reader(file);
    const TableColumn* found = table.column(column);
    if (!found) throw Error(ErrorCategory::audio, fmt::format("{}: no column '{}'", file.string(), column));
    const bool is_struct = found->type.rfind("STRUCT", 0) == 0;
    const std::string bytes = is_struct ? TableReader::quoted(column) + ".bytes" : TableReader::quoted(column);
    WindowClips rows;
    rows.clips.reserve(window.count);
    // The rows come in file order; their numbers are checked all the same.
    table.query_views(parquet_window_query(file, bytes, window.first, window.count), [&](const TableRowView& r) {
      if (r.values[1] != std::to_string(window.first + rows.clips.size()))
        throw Error(ErrorCategory::internal, fmt::format("{}: the rows of a window came out of order", file.string()));
      if (rows.chunks.empty() || rows.chunks.back() != r.chunk) rows.chunks.push_back(r.chunk);
      rows.clips.push_back(r.values[0]);
    });
    if (rows.clips.size() != window.count)
      throw Error(ErrorCategory::audio, fmt::format("{}: rows {}..{} could not all be read", file.string(),
                                                    window.first, window.first + window.count - 1));
    return rows;
  }

  const TableReader& reader(const std::filesystem::path& file) {
    auto& r = readers_[file.string()];
    if (!r) r = std::make_unique<TableReader>(TableReader::parquet({file}));
    return *r;
  }

  // Drops the least recently used windows while the cache holds more than kCachedBytes, keeping the two most
  // recent that samples have read and the latest read ahead that none has reached yet.
  void evict(std::list<CachedWindow>& evicted) {
    std::uint64_t total = 0;
    std::size_t read = 0;
    for (const auto& w : windows_) {
      total += w.bytes;
      read += w.read;
    }
    const auto ahead = std::find_if(windows_.begin(), windows_.end(), [](const CachedWindow& w) { return !w.read; });
    for (auto next = windows_.end(); next != windows_.begin() && total > kCachedBytes;) {
      const auto victim = std::prev(next);
      if (victim->read ? read <= 2 : victim == ahead) {
        next = victim;
        continue;
      }
      total -= victim->bytes;
      read -= victim->read;
      evicted.splice(evicted.begin(), windows_, victim);
    }
  }

  std::mutex mutex_;  // the cache
  std::mutex duckdb_mutex_;  // the readers and their queries
  std::map<std::string, std::unique_ptr<TableReader>> readers_;
  std::map<std::string, std::vector<std::pair<std::uint64_t, std::uint64_t>>> groups_;  // rows, bytes per row group
  // Declared last: destroying it waits for reads still running, which use the readers.
  std::list<CachedWindow> windows_;  // most recently used first
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

std::string parquet_window_query(const std::filesystem::path& file, const std::string& bytes, std::uint64_t first,
                                 std::uint64_t count) {
  return fmt::format(
      "SELECT CAST({} AS BLOB), CAST(file_row_number AS VARCHAR) FROM read_parquet({}, file_row_number = true) "
      "WHERE file_row_number >= {} AND file_row_number < {}",
      bytes, TableReader::literal(file.string()), first, first + count);
}

std::string parquet_clip_locator(const std::filesystem::path& file, std::uint64_t row, const std::string& column) {
  return fmt::format("{}#row={}&column={}", file.string(), row, column);
}

}  // namespace aeval::datasets
