// The `clip_pairs` dataset class: pairs of clips of one text that people told apart, a sample each, for judges
// asked which of two clips matches the text better (AQAScore's prompting setup on RELATE-Pair and Baton-Pair,
// seed 003 Tables 13-14). The clips are another dataset entry's samples; two clips of one group (the same reference
// text, or the same `group_field`) make a pair when their human scores differ by more than `min_difference`:
// RELATE's summed ratings at all (its generated clips: `only`), Baton's feedback (1 preferred, 0 rejected) at all.
// These are the pairs `pairwise_accuracy` forms from per-clip scores, in the same order: the earlier clip of the
// entry is `audio_a`.
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <optional>

#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "datasets/field_filter.hpp"
#include "registry/args.hpp"
#include "registry/registry.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using pipeline::Sample;
using registry::Args;
using registry::Kind;

namespace {

struct Clip {
  std::string id, audio;
  double human;
};

Dataset clip_pairs(const Args& args, const registry::Registry& registry) {
  const std::string clips_name = args.text("clips");
  const Dataset clips = load_dataset(registry, clips_name);
  const std::string human_field = args.text("human_field"), group_field = args.text("group_field");
  const double min_difference = args.number("min_difference");
  const std::optional<FieldFilter> only = field_filter(args);
  std::vector<std::string> order;  // groups in the order their first clip comes
  std::map<std::string, std::vector<Clip>> groups;
  for (const Sample s : clips.samples) {
    if (only && !only->admits(s.fields.is_object() && s.fields.contains(only->field) ? s.fields[only->field]
                                                                                      : nlohmann::json()))
      continue;
    const nlohmann::json* human = s.fields.is_object() && s.fields.contains(human_field) ? &s.fields[human_field] : nullptr;
    if (!human || !human->is_number())
      throw Error(ErrorCategory::data, fmt::format("dataset '{}', sample '{}': no number in field '{}' to pair clips by",
                                                   clips_name, s.id, human_field));
    std::string group;
    if (group_field.empty()) {
      if (!s.reference) throw Error(ErrorCategory::data, fmt::format("dataset '{}', sample '{}': no reference text to "
                                                                     "group clips by", clips_name, s.id));
      group = *s.reference;
    } else {
      const auto found = s.fields.find(group_field);
      if (found == s.fields.end())
        throw Error(ErrorCategory::data,
                    fmt::format("dataset '{}', sample '{}': no field '{}'", clips_name, s.id, group_field));
      group = found->is_string() ? found->get<std::string>() : found->dump();
    }
    auto& members = groups[group];
    if (members.empty()) order.push_back(group);
    members.push_back({s.id, s.audio.string(), human->get<double>()});
  }
  Dataset d;
  d.name = args.entry().name;
  d.audio_dir_missing = clips.audio_dir_missing;
  for (const auto& group : order) {
    const auto& members = groups[group];
    for (std::size_t i = 0; i < members.size(); ++i)
      for (std::size_t j = i + 1; j < members.size(); ++j) {
        const Clip &a = members[i], &b = members[j];
        if (!(std::fabs(a.human - b.human) > min_difference)) continue;
        Sample s;
        s.id = a.id + "|" + b.id;
        if (group_field.empty()) s.reference = group;  // the text both clips were judged against
        s.fields = {{"audio_a", a.audio},   {"audio_b", b.audio},   {"clip_a", a.id},
                    {"clip_b", b.id},       {"human_a", a.human},   {"human_b", b.human},
                    {"group", group},       {"first_preferred", a.human > b.human ? "yes" : "no"}};
        d.samples.push_back(s);
      }
  }
  if (d.samples.empty())
    throw Error(ErrorCategory::data, fmt::format("dataset '{}': no two clips of one group differ by more than {} in "
                                                 "'{}'", clips_name, min_difference, human_field));
  d.description = {{"class", "clip_pairs"}, {"clips", clips.description}, {"human_field", human_field},
                   {"min_difference", min_difference}, {"pairs", d.samples.size()}, {"groups", groups.size()}};
  if (only) d.description["only"] = only->to_json();
  return d;
}

const DatasetClasses::Registration kClipPairsClass{
    {Kind::dataset, "clip_pairs",
     "Pairs of clips of one text whose human scores differ by more than min_difference (RELATE-Pair, Baton-Pair), "
     "a sample each: fields audio_a, audio_b, first_preferred (yes or no), human_a, human_b",
     with_catalog_args({arg::required_reference("clips", Kind::dataset, "the dataset of rated clips"),
                        arg::text("human_field", "human_score", "the field holding each clip's human score"),
                        arg::text("group_field", "", "the field whose equal values make a group (default: the "
                                                     "reference text)"),
                        arg::number("min_difference", 2.0, "a pair's human scores differ by more than this")
                            .at_least(0),
                        field_filter_arg("{system: [tango, tango2]}")})},
    clip_pairs};

}  // namespace

}  // namespace aeval::datasets
