#pragma once
// Reading the texts `aeval score` compares: line-aligned text files, or JSONL
// files with a named field (a string, a list of strings, or a number).
#include <filesystem>
#include <string>
#include <vector>

#include "aeval/metrics/catalog.hpp"

namespace aeval::cli {

// One entry per line/row; each entry holds one or more texts.
// Throws aeval::Error (data) naming file, line and byte offset for invalid
// UTF-8, malformed JSON and missing fields.
std::vector<std::vector<std::string>> read_segments(const std::filesystem::path& path, const std::string& field);

// references[i]: all references of segment i.
using ScoreInput = metrics::Segments;

// Hypotheses from one file, references from one or more (each adds one
// reference per segment). Throws naming both files and both counts when the
// lengths differ.
ScoreInput read_score_input(const std::filesystem::path& hypotheses, const std::vector<std::filesystem::path>& references,
                            const std::string& hyp_field, const std::string& ref_field);

}  // namespace aeval::cli
