#pragma once
// The Hub splits the `audiocapbench` dataset class reads (its four sources), for
// the class itself and for what the cache survey counts as in use.
#include <vector>

#include "datasets/hub_split.hpp"
#include "registry/args.hpp"

namespace aeval::datasets {

std::vector<HubSplitRequest> audiocapbench_hub_splits(const pipeline::Args& args);

}  // namespace aeval::datasets
