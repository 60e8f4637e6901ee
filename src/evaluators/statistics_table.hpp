#pragma once
// The statistics rows of a run's samples, stored as narrow as their numbers allow (issue 54).
#include <cstddef>
#include <cstdint>
#include <limits>
#include <variant>
#include <vector>

namespace aeval::pipeline {

// Numbers appended row after row and read back as doubles, the same values. Most statistics are small counts
// (edits, reference words, matched n-grams, a 0/1 flag): they are kept in 8, 16 or 32-bit integers, the
// narrowest that holds every number so far, and the whole table widens, once per step, when one does not fit
// (to doubles at the first number that is not an integer). A run of a million samples scored by WER and CER
// keeps its twelve numbers a sample in 12 MB instead of 96.
class StatisticsTable {
 public:
  void reserve(std::size_t numbers);
  void append(const double* row, std::size_t width);
  void clear() { *this = {}; }
  std::size_t size() const;
  double operator[](std::size_t i) const {
    // Doubles first: rows of fractions are the ones a bootstrap gathers number by number (the integer ones are
    // resampled by counts, through visit()).
    if (const auto* doubles = std::get_if<std::vector<double>>(&numbers_)) return (*doubles)[i];
    return std::visit([i](const auto& numbers) { return double(numbers[i]); }, numbers_);
  }
  // Every number an integer (however it is stored), and the largest magnitude among them.
  bool integers() const { return !std::holds_alternative<std::vector<double>>(numbers_); }
  double largest_magnitude() const { return largest_; }
  // The column sums of an integer table of `width` numbers a row, row i taken counts[i] times (a bootstrap
  // resample). Added in 64-bit integers: exact, like doubles, while every sum stays below 2^53, which the caller
  // ensures.
  std::vector<double> counted_sums(const std::vector<std::uint32_t>& counts, std::size_t width) const;
  // Calls `f` with the numbers as a pointer to their stored type: a pass over them at the speed of memory.
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit([&f](const auto& numbers) -> decltype(auto) { return f(numbers.data()); }, numbers_);
  }

 private:
  std::variant<std::vector<std::int8_t>, std::vector<std::int16_t>, std::vector<std::int32_t>, std::vector<double>>
      numbers_;
  std::size_t reserved_ = 0;
  double largest_ = 0;
};

}  // namespace aeval::pipeline
