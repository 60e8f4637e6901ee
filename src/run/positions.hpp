#pragma once
// A run's samples by their place in the dataset.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace aeval::pipeline {

// Dataset positions, ascending: 4 bytes a sample (a dataset holds fewer than 2^32 rows; select_positions checks).
using Positions = std::vector<std::uint32_t>;

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
