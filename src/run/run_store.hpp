#pragma once
// The run store: RUN_DIR/run.sqlite, an SQLite database in WAL mode that
// receives every finished sample the moment it is handed over (the samples
// that finished together share one transaction), so a run killed at any
// instant — kill -9 included — loses at most the samples still in flight. samples.jsonl and summary.json are
// always regenerated from it.
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace aeval::detail {
class Database;
}

namespace aeval::pipeline {

struct StoredSample {
  std::string id;
  nlohmann::json record;
  bool failed = false;
  std::string inputs;  // fingerprint of what the sample was run on; "" when unknown (stores before 0.2)
};

// The file a session of the run in `run_dir` holds a FileLock on while it runs (a killed one's lock is dropped by
// the kernel): `aeval view` tells running runs from stopped ones by it.
std::filesystem::path session_lock_file(const std::filesystem::path& run_dir);

class RunStore {
 public:
  // Creates the database (and its tables) or opens an existing one.
  // Throws aeval::Error (data) naming the file when it cannot.
  explicit RunStore(const std::filesystem::path& file);
  // Opens an existing store to read it, changing nothing (aeval view): the writing methods fail.
  static RunStore read_only(const std::filesystem::path& file);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  void set_meta(const std::string& key, const nlohmann::json& value);
  std::optional<nlohmann::json> meta(const std::string& key) const;

  // Durable when it returns, all in one transaction; a later put for the
  // same position replaces it (a retried sample).
  void put_samples(const std::vector<std::pair<std::size_t, StoredSample>>& samples);
  // Each stored sample without its record: what resuming a run reads of it (its id, whether it failed, the
  // fingerprint of its inputs), so resuming a large run does not hold its records.
  struct State {
    std::string id;
    bool failed = false;
    std::string inputs;
  };
  std::map<std::size_t, State> states() const;
  // Every stored sample in position order, one at a time: a run of any size is never held whole. `text` is its
  // record as stored, the record's own serialization (samples.jsonl's line, without serializing it again).
  void each_sample(
      const std::function<void(std::size_t position, StoredSample sample, const std::string& text)>& visit) const;
  // How many samples are stored, and how many of them failed, without reading them.
  struct Counts {
    std::size_t stored = 0, failed = 0;
  };
  Counts counts() const;

  // A page of samples, filtered and sorted in the database, so a run of any size is never read whole.
  struct Query {
    std::string sort_score;        // a score's name: by its value (samples without one last); "": dataset order
    bool descending = false;
    bool failed_only = false;
    std::string contains;          // in the id or the prediction; "": any
    std::string field, field_value;  // fields.FIELD equals FIELD_VALUE (a group); "": any
    std::size_t offset = 0, limit = 50;
  };
  struct Page {
    std::size_t total = 0;  // samples the filters keep
    std::vector<std::pair<std::size_t, StoredSample>> samples;
  };
  Page page(const Query& query) const;
  std::optional<StoredSample> sample_at(std::size_t position) const;
  // Every sample's id and the value of one score (none where it failed or lacks it), in dataset order.
  std::vector<std::pair<std::string, std::optional<double>>> score_values(const std::string& score) const;

  // One event of the run's structured log: a JSON line appended to run.log
  // next to the database, and a row in it.
  void log(const nlohmann::json& event);

  const std::filesystem::path& file() const;

 private:
  explicit RunStore(std::unique_ptr<detail::Database> db);
  std::unique_ptr<detail::Database> db_;
};

}  // namespace aeval::pipeline
