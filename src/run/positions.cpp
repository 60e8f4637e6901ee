#include "run/positions.hpp"

#include <algorithm>

namespace aeval::pipeline {

PositionsToRun::PositionsToRun(const Positions& positions, std::function<bool(std::size_t)> runs)
    : positions_(&positions), runs_(std::move(runs)) {
  count_ = runs_ ? std::size_t(std::count_if(positions.begin(), positions.end(), runs_)) : positions.size();
  skip_to_accepted();
}

void PositionsToRun::pop_front() {
  ++taken_;
  ++next_;
  skip_to_accepted();
}

void PositionsToRun::skip_to_accepted() {
  if (runs_)
    while (next_ < positions_->size() && !runs_((*positions_)[next_])) ++next_;
}

}  // namespace aeval::pipeline
