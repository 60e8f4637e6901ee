#pragma once
// A dataset: its samples in order, what it is, and what the user should be told.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "datasets/sample_list.hpp"
#include "registry/factory.hpp"

namespace aeval::datasets {

struct Dataset {
  std::string name;
  SampleList samples;
  nlohmann::json description;      // class, source files, counts
  std::vector<std::string> notes;  // things the user should be told (skipped rows)
  // Set when the entry's audio is published apart from its list and its folder was not given: how to
  // give it. A run refuses the dataset with this line; fetching the list and rescoring need no audio.
  std::string audio_dir_missing;
};

// A registry dataset name, or the path of a JSONL manifest.
Dataset load_dataset(const registry::Registry& registry, const std::string& name_or_path);

// Where downloaded datasets are cached: cache_dir()/datasets.
std::filesystem::path dataset_cache_dir();

// Whether the dataset's files come from the network (a Hub dataset, a `url`):
// what `aeval fetch dataset --all` fetches.
bool dataset_downloads(const registry::Registry& registry, const std::string& name);

// `args` followed by what every dataset class takes: the task run when only the
// dataset is named, and what `aeval list datasets` shows of it (licence, homepage, size).
std::vector<registry::ArgSpec> with_catalog_args(std::vector<registry::ArgSpec> args);

// Dataset classes register here (registry/factory.hpp); a factory gets the registry too, for the entries it names
// (clip_pairs' clips).
using DatasetClasses = registry::ClassFactories<Dataset, const registry::Registry&>;

}  // namespace aeval::datasets
