#pragma once
// YAML aliases (*name) repeat what an anchor (&name) marks, and yaml-cpp links the anchored node in
// again rather than copy it: an anchor used inside itself (`x: &s [*s]`) makes a cycle, and a few lines
// of anchors repeating anchors unfold to billions of values ("billion laughs"). Whatever walks an entry
// afterwards (the checks, provenance's JSON, --set) would recurse forever or for hours, so a document
// is unfolded once, counting, before anything else reads it.
#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <string>

namespace aeval::registry {

// yaml-cpp refuses to parse deeper than this (its DepthGuard), so only aliases unfold deeper.
inline constexpr std::size_t kMaxYamlDepth = 2000;
// 90 times what the largest built-in registry file holds (1,101), and unfolded in milliseconds.
inline constexpr std::size_t kMaxYamlValues = 100'000;

// Throws aeval::Error (config) "SOURCE:LINE: ..." when `document`, every alias replaced by what it
// names, nests deeper than kMaxYamlDepth (the line of the node that does) or holds more than
// kMaxYamlValues keys and values (the line of the top-level key or item they unfold under).
void refuse_runaway_aliases(const YAML::Node& document, const std::string& source);

}  // namespace aeval::registry
