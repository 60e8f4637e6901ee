#pragma once
// A run's samples by their place in the dataset.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <vector>

namespace aeval::pipeline {

// Dataset positions, ascending. The first rows of the dataset (all of a run without shards or a limit's) are
// counted, not listed; the others take 4 bytes each (a dataset holds fewer than 2^32 rows: select_positions checks).
class Positions {
 public:
  using value_type = std::uint32_t;
  class Iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = Positions::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = value_type;
    Iterator() = default;
    Iterator(const Positions* positions, std::size_t i) : positions_(positions), i_(i) {}
    value_type operator*() const { return (*positions_)[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    Iterator operator++(int) {
      Iterator before = *this;
      ++i_;
      return before;
    }
    bool operator==(const Iterator& other) const { return i_ == other.i_; }

   private:
    const Positions* positions_ = nullptr;
    std::size_t i_ = 0;
  };

  Positions() = default;
  Positions(std::initializer_list<value_type> positions) {
    for (value_type p : positions) push_back(p);
  }
  void push_back(value_type position) {  // after every position already in
    if (listed_.empty() && position == leading_)
      ++leading_;
    else
      listed_.push_back(position);
  }
  std::size_t size() const { return leading_ + listed_.size(); }
  bool empty() const { return size() == 0; }
  value_type operator[](std::size_t i) const { return i < leading_ ? value_type(i) : listed_[i - leading_]; }
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  std::size_t leading_ = 0;          // 0, 1, …, leading_ - 1 come first
  std::vector<value_type> listed_;  // then these
};

// The positions a session runs, drawn in order from the run's (which must outlive this): each one `runs` accepts
// (every one, by default), never copied (a queue of them took 8 bytes a sample).
class PositionsToRun {
 public:
  explicit PositionsToRun(const Positions& positions, std::function<bool(std::size_t)> runs = {});
  std::size_t size() const { return count_ - taken_; }  // left to draw
  bool empty() const { return size() == 0; }
  std::size_t front() const { return (*positions_)[next_]; }
  void pop_front();

 private:
  void skip_to_accepted();
  const Positions* positions_;
  std::function<bool(std::size_t)> runs_;
  std::size_t next_ = 0, count_ = 0, taken_ = 0;
};

}  // namespace aeval::pipeline
