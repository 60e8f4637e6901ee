// StatisticsTable: numbers kept as narrow as they allow and read back as the same doubles.
#include "evaluators/statistics_table.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

using aeval::pipeline::StatisticsTable;

// The width in bytes of the table's stored numbers.
std::size_t stored_width(const StatisticsTable& table) {
  return table.visit([](const auto* numbers) { return sizeof(*numbers); });
}

std::vector<double> read_back(const StatisticsTable& table) {
  std::vector<double> out;
  for (std::size_t i = 0; i < table.size(); ++i) out.push_back(table[i]);
  return out;
}

TEST(StatisticsTable, WidensOnceANumberDoesNotFitAndKeepsEveryEarlierOne) {
  StatisticsTable table;
  std::vector<double> all;
  const auto append = [&](std::vector<double> row) {
    table.append(row.data(), row.size());
    all.insert(all.end(), row.begin(), row.end());
  };
  append({3, 0, -128});
  EXPECT_EQ(stored_width(table), 1u);
  append({127, 300, 1});
  EXPECT_EQ(stored_width(table), 2u);
  append({-70000, 2, 2});
  EXPECT_EQ(stored_width(table), 4u);
  EXPECT_TRUE(table.integers());
  EXPECT_EQ(table.largest_magnitude(), 70000.0);
  append({0.5, 1, 1});
  EXPECT_EQ(stored_width(table), 8u);
  EXPECT_FALSE(table.integers());
  append({1, 2, 3});  // an integer after doubles stays a double: a table never narrows
  EXPECT_EQ(stored_width(table), 8u);
  EXPECT_EQ(read_back(table), all);
}

TEST(StatisticsTable, WhatNoIntegerHoldsExactlyIsKeptAsADouble) {
  for (const double v : {-0.0, 4294967296.0, 2147483648.0, double(NAN), double(INFINITY), 1e-300}) {
    StatisticsTable table;
    const double row[2] = {1, v};
    table.append(row, 2);
    EXPECT_EQ(stored_width(table), 8u) << v;
    EXPECT_FALSE(table.integers()) << v;
    EXPECT_EQ(std::signbit(table[1]), std::signbit(v)) << v;
    if (!std::isnan(v)) {
      EXPECT_EQ(table[1], v);
    }
  }
  StatisticsTable table;
  const double row[2] = {2147483647.0, -2147483648.0};  // the ends of 32 bits still are integers
  table.append(row, 2);
  EXPECT_EQ(stored_width(table), 4u);
  EXPECT_EQ(read_back(table), (std::vector<double>{2147483647.0, -2147483648.0}));
}

TEST(StatisticsTable, ClearingStartsNarrowAgain) {
  StatisticsTable table;
  const double row[1] = {0.25};
  table.append(row, 1);
  table.clear();
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(stored_width(table), 1u);
  EXPECT_TRUE(table.integers());
}

// A resample's column sums, every row times its count, for each stored width and for widths the compiler is told
// (6) and is not (13): the sums a plain double loop gives.
TEST(StatisticsTable, CountedSumsAreEachRowTimesItsCount) {
  for (const double scale : {1.0, 1000.0, 100000.0}) {  // 8, 16 and 32-bit rows
    for (const std::size_t width : {std::size_t(6), std::size_t(13)}) {
      StatisticsTable table;
      std::vector<double> expected(width, 0.0);
      std::vector<std::uint32_t> counts;
      for (std::size_t i = 0; i < 50; ++i) {
        std::vector<double> row(width);
        for (std::size_t k = 0; k < width; ++k) row[k] = std::round(scale * double((i * 7 + k * 3) % 11) / 10.0) - k;
        table.append(row.data(), width);
        counts.push_back(std::uint32_t((i * 5) % 4));
        for (std::size_t k = 0; k < width; ++k) expected[k] += counts.back() * row[k];
      }
      EXPECT_EQ(stored_width(table), scale == 1.0 ? 1u : scale == 1000.0 ? 2u : 4u);
      EXPECT_EQ(table.counted_sums(counts, width), expected) << "scale " << scale << ", width " << width;
    }
  }
}

}  // namespace
