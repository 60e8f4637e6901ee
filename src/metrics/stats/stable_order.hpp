#pragma once
// Sorting positions by numbers, stably, as numpy's stable argsort does: the statistics rank with it.
#include <cstddef>
#include <vector>

namespace aeval::metrics {

// `order` (positions into `keys`) stably sorted by keys[order[i]]: doubles ordered as numbers, -0.0 as
// 0.0, equal keys kept in the order `order` gives them. Keys must not be NaN.
std::vector<std::size_t> stable_order_by(const std::vector<double>& keys, std::vector<std::size_t> order);

}  // namespace aeval::metrics
