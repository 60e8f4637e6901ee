#include <algorithm>
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "aeval/report/leaderboard.hpp"
#include "aeval/report/published.hpp"

namespace aeval::report {

std::optional<double> printed_half_unit(const std::string& text) {
  std::size_t at = !text.empty() && (text[0] == '+' || text[0] == '-');  // past a sign
  int decimals = 0, digits = 0;
  bool point = false;
  for (; at < text.size() && text[at] != 'e' && text[at] != 'E'; ++at) {
    if (text[at] == '.' && !point) {
      point = true;
    } else if (std::isdigit(static_cast<unsigned char>(text[at]))) {
      ++digits;
      decimals += point;
    } else {
      return std::nullopt;
    }
  }
  int exponent = 0;
  if (at < text.size()) {
    const std::string rest = text.substr(at + 1);
    if (rest.empty() || rest.find_first_not_of("+-0123456789") != std::string::npos) return std::nullopt;
    try {
      exponent = std::stoi(rest);
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  if (!digits) return std::nullopt;
  return 0.5 * std::pow(10.0, exponent - decimals);
}

bool PublishedCheck::reproduced() const {
  // The tolerance is inclusive, with room for the decimal rounding of the printed number.
  return run_value && std::fabs(*run_value - published.value) <= published.tolerance * (1 + 1e-9) + 1e-12;
}

void check_published(Leaderboard& board, const std::vector<PublishedResult>& published,
                     const std::vector<std::string>& prompt_variants) {
  const auto is_variant = [&](const std::string& prompt) {
    return std::find(prompt_variants.begin(), prompt_variants.end(), prompt) != prompt_variants.end();
  };
  for (const auto& p : published) {
    bool ran = false;
    for (const auto& row : board.rows) {
      if (row.model != p.model || (p.prompt.empty() ? is_variant(row.prompt) : row.prompt != p.prompt)) continue;
      for (std::size_t c = 0; c < board.columns.size(); ++c) {
        const auto& column = board.columns[c];
        if (column.metric != p.metric || (!p.dataset.empty() && column.dataset != p.dataset)) continue;
        const auto value = row.values.find(c);
        if (value == row.values.end()) continue;
        board.published.push_back({p, row.label, value->second});
        ran = true;
      }
    }
    // A wording no run of the board used is not listed: a prompt study's numbers would bury the task's own.
    const bool wording_run = p.prompt.empty() || std::any_of(board.rows.begin(), board.rows.end(), [&](const auto& row) {
                               return row.prompt == p.prompt;
                             });
    if (!ran && wording_run)
      board.published.push_back({p, p.prompt.empty() ? p.model : p.model + " (prompt " + p.prompt + ")", std::nullopt});
  }
}

}  // namespace aeval::report
