#pragma once
// Which samples a run covers: the first `limit` of the dataset, then those
// whose id hashes (FNV-1a) to the shard's index, so a job array splits a
// task the same way on every machine.
#include <cstddef>
#include <vector>

#include "aeval/pipeline/run_types.hpp"
#include "datasets/dataset.hpp"
#include "run/positions.hpp"

namespace aeval::pipeline {

// The run's positions; throws aeval::Error (data) for a dataset of 2^32 rows or more.
Positions select_positions(const datasets::Dataset& dataset, const Invocation& invocation);

}  // namespace aeval::pipeline
