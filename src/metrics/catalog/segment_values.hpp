#pragma once
// The mean of one value over segment results, as numpy computes it.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "util/numpy_sum.hpp"

namespace aeval::metrics::detail {

// numpy's mean of results[i][key] over the results holding a number there; NaN when none does.
inline double mean_of(const std::vector<nlohmann::json>& results, const std::string& key) {
  std::vector<double> values;
  for (const auto& r : results)
    if (const auto found = r.find(key); found != r.end() && found->is_number()) values.push_back(found->get<double>());
  return values.empty() ? NAN : aeval::detail::numpy_mean(values.data(), values.size());
}

}  // namespace aeval::metrics::detail
