// slaypni/fastdtw ea13ae2 fastdtw/fastdtw.py (pure Python): recursive
// coarsening by pair averaging, window expansion by `radius`, DTW inside the
// window with the reference's tie order.
#include <cmath>
#include <limits>

#include "aeval/metrics/mcd.hpp"

namespace aeval::metrics {

namespace {

using Frames = std::vector<std::vector<double>>;
using Path = std::vector<std::pair<std::size_t, std::size_t>>;

double euclidean(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (std::size_t k = 0; k < a.size(); ++k) sum += (a[k] - b[k]) * (a[k] - b[k]);
  return std::sqrt(sum);
}

// DTW over the cells of `window` (every cell when null). Each window row is
// one contiguous run of columns, so the table is stored as row bands: memory
// follows the window, not len_x · len_y.
Path dtw(const Frames& x, const Frames& y, const Path* window) {
  const std::size_t nx = x.size(), ny = y.size();
  struct Cell {
    double cost = std::numeric_limits<double>::infinity();
    std::size_t from_i = 0, from_j = 0;
  };
  struct Band {
    std::size_t first = 1, last = 0;  // 1-based columns; empty when first > last
    std::vector<Cell> cells;
  };
  std::vector<Band> rows(nx + 1);
  rows[0] = {0, 0, {Cell{0, 0, 0}}};
  if (window) {
    for (const auto& [i, j] : *window) {
      Band& band = rows[i + 1];
      if (band.first > band.last) band.first = band.last = j + 1;
      band.first = std::min(band.first, j + 1);
      band.last = std::max(band.last, j + 1);
    }
  } else {
    for (std::size_t i = 1; i <= nx; ++i) rows[i].first = 1, rows[i].last = ny;
  }
  for (std::size_t i = 1; i <= nx; ++i)
    if (rows[i].first <= rows[i].last) rows[i].cells.resize(rows[i].last - rows[i].first + 1);
  const Cell outside;
  auto at = [&](std::size_t i, std::size_t j) -> const Cell& {
    const Band& band = rows[i];
    return j >= band.first && j <= band.last ? band.cells[j - band.first] : outside;
  };
  for (std::size_t i = 1; i <= nx; ++i) {
    Band& band = rows[i];
    for (std::size_t j = band.first; j <= band.last && band.first <= band.last; ++j) {
      const double d = euclidean(x[i - 1], y[j - 1]);
      // min() keeps the first of equal candidates: up, left, diagonal.
      Cell best{at(i - 1, j).cost + d, i - 1, j};
      if (at(i, j - 1).cost + d < best.cost) best = {at(i, j - 1).cost + d, i, j - 1};
      if (at(i - 1, j - 1).cost + d < best.cost) best = {at(i - 1, j - 1).cost + d, i - 1, j - 1};
      band.cells[j - band.first] = best;
    }
  }
  Path path;
  std::size_t i = nx, j = ny;
  while (!(i == 0 && j == 0)) {
    path.emplace_back(i - 1, j - 1);
    const Cell& c = at(i, j);
    i = c.from_i;
    j = c.from_j;
  }
  return Path(path.rbegin(), path.rend());
}

Frames reduce_by_half(const Frames& x) {
  Frames out;
  const std::size_t limit = x.size() - x.size() % 2;
  for (std::size_t i = 0; i < limit; i += 2) {
    std::vector<double> mean(x[i].size());
    for (std::size_t k = 0; k < mean.size(); ++k) mean[k] = (x[i][k] + x[i + 1][k]) / 2;
    out.push_back(std::move(mean));
  }
  return out;
}

Path expand_window(const Path& path, std::size_t len_x, std::size_t len_y, int radius) {
  // Cells within `radius` of the coarse path, each doubled to the finer grid,
  // marked in a bitmap (the reference uses Python sets; only membership matters).
  std::vector<bool> cells(len_x * len_y, false);
  for (const auto& [i, j] : path)
    for (long a = long(i) - radius; a <= long(i) + radius; ++a)
      for (long b = long(j) - radius; b <= long(j) + radius; ++b)
        for (long di = 0; di < 2; ++di)
          for (long dj = 0; dj < 2; ++dj) {
            const long fi = 2 * a + di, fj = 2 * b + dj;
            if (fi >= 0 && fj >= 0 && fi < long(len_x) && fj < long(len_y)) cells[std::size_t(fi) * len_y + std::size_t(fj)] = true;
          }
  // Per row, the first contiguous run of cells at or after the previous row's start.
  Path window;
  std::size_t start_j = 0;
  for (std::size_t i = 0; i < len_x; ++i) {
    long new_start = -1;
    for (std::size_t j = start_j; j < len_y; ++j) {
      if (cells[i * len_y + j]) {
        window.emplace_back(i, j);
        if (new_start < 0) new_start = long(j);
      } else if (new_start >= 0) {
        break;
      }
    }
    if (new_start >= 0) start_j = std::size_t(new_start);
  }
  return window;
}

Path fastdtw_recursive(const Frames& x, const Frames& y, int radius) {
  const std::size_t min_size = std::size_t(radius) + 2;
  if (x.size() < min_size || y.size() < min_size) return dtw(x, y, nullptr);
  const Path coarse = fastdtw_recursive(reduce_by_half(x), reduce_by_half(y), radius);
  const Path window = expand_window(coarse, x.size(), y.size(), radius);
  return dtw(x, y, &window);
}

}  // namespace

std::vector<std::pair<std::size_t, std::size_t>> fastdtw_path(const Frames& x, const Frames& y, int radius) {
  return fastdtw_recursive(x, y, radius);
}

}  // namespace aeval::metrics
