#pragma once
// The runs under a results folder, as aeval view sees them: each run folder
// (one holding summary.json or run.sqlite) is named by its path relative to
// the folder, and a name resolves only to a run folder inside it.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace aeval::view {

class ResultsFolder {
 public:
  // Throws aeval::Error (config) when `root` is not a folder.
  explicit ResultsFolder(const std::filesystem::path& root);
  const std::filesystem::path& root() const { return root_; }

  // Every run, newest first: id, task, model, dataset, date, samples, failed, the summary's headline
  // metrics and the score names its samples carry. Reads summaries and run.json, never the samples.
  nlohmann::json runs() const;

  // The folder of run `id`; none for an id that is not a run folder inside the root (absolute, with
  // "..", or through a link that leaves it).
  std::optional<std::filesystem::path> run_dir(const std::string& id) const;

 private:
  std::filesystem::path root_;  // canonical
};

}  // namespace aeval::view
