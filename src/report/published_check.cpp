#include <cmath>

#include "aeval/report/leaderboard.hpp"

namespace aeval::report {

bool PublishedCheck::reproduced() const {
  // The tolerance is inclusive, with room for the decimal rounding of the printed number.
  return run_value && std::fabs(*run_value - published.value) <= published.tolerance * (1 + 1e-9) + 1e-12;
}

void check_published(Leaderboard& board, const std::vector<PublishedResult>& published) {
  for (const auto& p : published) {
    bool ran = false;
    for (const auto& row : board.rows) {
      if (row.model != p.model) continue;
      for (std::size_t c = 0; c < board.columns.size(); ++c) {
        const auto& column = board.columns[c];
        if (column.metric != p.metric || (!p.dataset.empty() && column.dataset != p.dataset)) continue;
        const auto value = row.values.find(c);
        if (value == row.values.end()) continue;
        board.published.push_back({p, row.label, value->second});
        ran = true;
      }
    }
    if (!ran) board.published.push_back({p, p.model, std::nullopt});
  }
}

}  // namespace aeval::report
