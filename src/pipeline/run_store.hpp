#pragma once
// The run store: RUN_DIR/run.sqlite, an SQLite database in WAL mode that
// receives every finished sample the moment it is handed over (the samples
// that finished together share one transaction), so a run killed at any
// instant — kill -9 included — loses at most the samples still in flight. samples.jsonl and summary.json are
// always regenerated from it.
#include <filesystem>
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

class RunStore {
 public:
  // Creates the database (and its tables) or opens an existing one.
  // Throws aeval::Error (data) naming the file when it cannot.
  explicit RunStore(const std::filesystem::path& file);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  void set_meta(const std::string& key, const nlohmann::json& value);
  std::optional<nlohmann::json> meta(const std::string& key) const;

  // Durable when it returns, all in one transaction; a later put for the
  // same position replaces it (a retried sample).
  void put_samples(const std::vector<std::pair<std::size_t, StoredSample>>& samples);
  std::map<std::size_t, StoredSample> samples() const;
  // How many samples are stored, and how many of them failed, without reading them.
  struct Counts {
    std::size_t stored = 0, failed = 0;
  };
  Counts counts() const;

  // One event of the run's structured log: a JSON line appended to run.log
  // next to the database, and a row in it.
  void log(const nlohmann::json& event);

  const std::filesystem::path& file() const;

 private:
  std::unique_ptr<detail::Database> db_;
};

}  // namespace aeval::pipeline
