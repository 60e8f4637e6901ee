#pragma once
// Which files of a Hub repository make which split when its card declares no
// configs, decided as `datasets` decides it (data_files.py): first files named
// data/SPLIT-NNNNN-of-NNNNN*, then a split keyword (train/training,
// validation/valid/dev/val, test/testing/eval/evaluation) in a folder name,
// then in a file name, else every file is the train split. Patterns are
// matched as fsspec globs, which is also how declared data_files match.
#include <string>
#include <utility>
#include <vector>

namespace aeval::datasets {

// The paths any of the patterns match, sorted, as fsspec's glob matches: '*'
// within a folder, '**' across any number of folders (none too), '?' one
// character, [...] a class ([!...] negated). Files and folders whose name
// starts with '.' or "__" only match a pattern that names such a part, as in
// `datasets`.
std::vector<std::string> hub_glob(const std::vector<std::string>& patterns, const std::vector<std::string>& paths);

// The splits `paths` make, each with its files in path order; the default splits
// first (train, validation, test), then the others by name.
std::vector<std::pair<std::string, std::vector<std::string>>> inferred_splits(const std::vector<std::string>& paths);

}  // namespace aeval::datasets
