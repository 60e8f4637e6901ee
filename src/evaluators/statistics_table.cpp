#include "evaluators/statistics_table.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace aeval::pipeline {

namespace {

// The place in the table's variant of the narrowest type holding `v` exactly: 0 int8, 1 int16, 2 int32,
// 3 double (a fraction, NaN, an infinity, -0.0, or an integer past 32 bits).
std::size_t narrowest(double v) {
  if (!(v == std::trunc(v)) || (v == 0 && std::signbit(v))) return 3;
  const auto fits = [v](auto type) {
    using T = decltype(type);
    return v >= double(std::numeric_limits<T>::min()) && v <= double(std::numeric_limits<T>::max());
  };
  return fits(std::int8_t{}) ? 0 : fits(std::int16_t{}) ? 1 : fits(std::int32_t{}) ? 2 : 3;
}

template <std::size_t To, class Variant>
void widen_to(Variant& numbers, std::size_t reserved) {
  using Target = std::variant_alternative_t<To, Variant>;
  Target wider;
  wider.reserve(reserved);
  std::visit([&wider](const auto& narrower) { wider.assign(narrower.begin(), narrower.end()); }, numbers);
  numbers = std::move(wider);
}

// Row after row, each times its count (0 included: no branch), into sums the compiler keeps in registers when the
// width is one it knows (W > 0).
template <std::size_t W, class T>
void add_counted(const T* row, const std::vector<std::uint32_t>& counts, std::size_t width, std::int64_t* sums) {
  if constexpr (W > 0) {
    std::array<std::int64_t, W> acc{};
    for (std::size_t i = 0; i < counts.size(); ++i, row += W)
      for (std::size_t k = 0; k < W; ++k) acc[k] += std::int64_t(counts[i]) * row[k];
    std::copy(acc.begin(), acc.end(), sums);
  } else {
    for (std::size_t i = 0; i < counts.size(); ++i, row += width)
      for (std::size_t k = 0; k < width; ++k) sums[k] += std::int64_t(counts[i]) * std::int64_t(row[k]);
  }
}

template <class T, std::size_t... W>
void add_counted_any_width(const T* row, const std::vector<std::uint32_t>& counts, std::size_t width,
                           std::int64_t* sums, std::index_sequence<W...>) {
  if (!((width == W + 1 && (add_counted<W + 1>(row, counts, width, sums), true)) || ...))
    add_counted<0>(row, counts, width, sums);
}

}  // namespace

std::vector<double> StatisticsTable::counted_sums(const std::vector<std::uint32_t>& counts, std::size_t width) const {
  std::vector<std::int64_t> sums(width, 0);
  std::visit(
      [&](const auto& numbers) {
        using T = typename std::decay_t<decltype(numbers)>::value_type;
        if constexpr (std::is_integral_v<T>)
          add_counted_any_width(numbers.data(), counts, width, sums.data(), std::make_index_sequence<12>());
        else
          throw std::logic_error("counted_sums of a table holding fractions");
      },
      numbers_);
  return std::vector<double>(sums.begin(), sums.end());
}

void StatisticsTable::reserve(std::size_t numbers) {
  reserved_ = numbers;
  std::visit([numbers](auto& v) { v.reserve(numbers); }, numbers_);
}

std::size_t StatisticsTable::size() const {
  return std::visit([](const auto& v) { return v.size(); }, numbers_);
}

void StatisticsTable::append(const double* row, std::size_t width) {
  std::size_t needed = numbers_.index();
  for (std::size_t k = 0; k < width; ++k) {
    needed = std::max(needed, narrowest(row[k]));
    if (std::isfinite(row[k])) largest_ = std::max(largest_, std::abs(row[k]));
  }
  const std::size_t reserved = std::max(reserved_, size() + width);
  switch (needed > numbers_.index() ? needed : 0) {
    case 1: widen_to<1>(numbers_, reserved); break;
    case 2: widen_to<2>(numbers_, reserved); break;
    case 3: widen_to<3>(numbers_, reserved); break;
    default: break;
  }
  std::visit(
      [row, width](auto& numbers) {
        using T = typename std::decay_t<decltype(numbers)>::value_type;
        for (std::size_t k = 0; k < width; ++k) numbers.push_back(T(row[k]));
      },
      numbers_);
}

}  // namespace aeval::pipeline
