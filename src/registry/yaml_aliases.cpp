#include "registry/yaml_aliases.hpp"

#include <fmt/format.h>

#include <vector>

#include "aeval/error.hpp"

namespace aeval::registry {

void refuse_runaway_aliases(const YAML::Node& document, const std::string& source) {
  const auto line = [](const YAML::Mark& mark) { return mark.is_null() ? 1 : mark.line + 1; };
  struct Pending {
    YAML::Node node;
    std::size_t depth;
    YAML::Mark top;  // where the top-level key or item it belongs to is written
  };
  // Lists and maps still to unfold: a stack of its own, since a cycle must not recurse here either.
  std::vector<Pending> pending;
  std::size_t values = 0;
  const auto visit = [&](const YAML::Node& node, std::size_t depth, const YAML::Mark& top) {
    if (++values > kMaxYamlValues)
      throw Error(ErrorCategory::config,
                  fmt::format("{}:{}: aliases unfold to more than {} values (anchors repeating anchors?)", source,
                              line(top), kMaxYamlValues));
    if (!node.IsSequence() && !node.IsMap()) return;  // a scalar holds nothing to unfold: not kept
    if (depth > kMaxYamlDepth)
      throw Error(ErrorCategory::config, fmt::format("{}:{}: aliases unfold deeper than {} levels (an anchor used inside itself?)",
                                                     source, line(node.Mark()), kMaxYamlDepth));
    pending.push_back({node, depth, top});
  };
  visit(document, 0, document.Mark());
  while (!pending.empty()) {
    Pending p = std::move(pending.back());
    pending.pop_back();
    const auto top = [&](const YAML::Node& written_at) { return p.depth == 0 ? written_at.Mark() : p.top; };
    if (p.node.IsSequence()) {
      for (const auto& item : p.node) visit(item, p.depth + 1, top(item));
    } else {
      for (const auto& item : p.node) {
        const YAML::Mark at = top(item.first);
        visit(item.first, p.depth + 1, at);
        visit(item.second, p.depth + 1, at);
      }
    }
  }
}

}  // namespace aeval::registry
