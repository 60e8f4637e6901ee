// The `caption_preferences` dataset class: people's choices between two captions of one clip, as FENSE (Zhou et
// al., 2022) publishes them (dataset/audiocaps_eval.json, clotho_eval.json): a JSON array, an object per clip
// with its file name and, for each kind of pair (HC, HI, HM, MM_1 … MM_5), [caption 1, caption 2, source 1,
// source 2, …, [the annotators' votes: 1 for caption 1, -1 for caption 2, 0 neither]] (the votes last, as FENSE's
// reader takes them: some AudioCaps-Eval pairs hold a 0 before them). A sample per pair whose votes do not sum to
// 0: FENSE's accuracy (experiment/main.py, get_accuracy) counts only those, so the pairs people tied on are left
// out here. A clip without one of the kinds, or with null for it, has no sample of it, as FENSE's reader skips it.
// BRACE (Guo et al., 2025) publishes the same shape: its Main files name the kinds of pair freely (Human-Human,
// Human-Machine_1, …: `kinds: ["*"]`), and its Hallucination files hold no votes, the right caption being the one
// whose source is `human` (`truth: human_source`), as its reader (src/data.py, BRACE_Dataset) decides it.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "registry/args.hpp"
#include "util/untrusted_json.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using pipeline::Sample;

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct Preferences {
  std::vector<Sample> samples;
  std::size_t ties = 0;
};

struct PreferenceLayout {
  std::vector<std::string> name_fields;  // the first a clip has names its file
  std::string audio_suffix;              // appended to a name without an extension
  std::vector<std::string> kinds;        // ["*"]: every member but the name fields and not_pairs
  std::vector<std::string> not_pairs;
  std::map<std::string, std::string> categories;  // a kind's name up to its first _ -> its category
  bool truth_from_votes = true;                   // else the caption whose source is "human"
};

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The members of a clip that hold its pairs (with kinds ["*"], in the order of their names).
std::vector<std::string> pair_members(const json& clip, const PreferenceLayout& layout) {
  if (layout.kinds != std::vector<std::string>{"*"}) return layout.kinds;
  std::vector<std::string> members;
  for (const auto& [name, value] : clip.items())
    if (!contains(layout.name_fields, name) && !contains(layout.not_pairs, name)) members.push_back(name);
  return members;
}

std::string category_of(const std::string& kind, const PreferenceLayout& layout) {
  const std::string stem = kind.substr(0, kind.find('_'));
  const auto mapped = layout.categories.find(stem);
  return mapped == layout.categories.end() ? stem : mapped->second;
}

std::string clip_file(const json& clip, const PreferenceLayout& layout) {
  for (const auto& field : layout.name_fields)
    if (const auto name = clip.find(field); name != clip.end() && name->is_string() && !name->get<std::string>().empty()) {
      const std::string file = name->get<std::string>();
      return fs::path(file).has_extension() ? file : file + layout.audio_suffix;
    }
  return "";
}

Preferences read_caption_preferences(const fs::path& file, const fs::path& audio_dir, const PreferenceLayout& layout) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error(ErrorCategory::data, fmt::format("{}: cannot be read", file.string()));
  std::ostringstream text;
  text << in.rdbuf();
  const json clips = parse_untrusted_json(text.str(), /*allow_exceptions=*/false);
  if (clips.is_discarded()) throw Error(ErrorCategory::data, fmt::format("{}: not JSON", file.string()));
  if (!clips.is_array()) throw Error(ErrorCategory::data, fmt::format("{}: not a JSON array of clips", file.string()));
  Preferences out;
  for (std::size_t c = 0; c < clips.size(); ++c) {
    const json& clip = clips[c];
    const std::string clip_name = clip.is_object() ? clip_file(clip, layout) : "";
    if (clip_name.empty())
      throw Error(ErrorCategory::data, fmt::format("{}: clip {} has none of {}", file.string(), c + 1,
                                                   fmt::join(layout.name_fields, ", ")));
    for (const auto& kind : pair_members(clip, layout)) {
      const auto pair = clip.find(kind);
      if (pair == clip.end() || pair->is_null()) continue;
      const auto bad = [&](const std::string& what) {
        return Error(ErrorCategory::data, fmt::format("{}: clip '{}', {}: {}", file.string(), clip_name, kind, what));
      };
      if (!pair->is_array() || pair->size() < 5 || !(*pair)[0].is_string() || !(*pair)[1].is_string())
        throw bad(layout.truth_from_votes ? "not [caption 1, caption 2, source 1, source 2, [votes]]"
                                          : "not [caption 1, caption 2, source 1, source 2, …]");
      Sample s;
      s.id = clip_name + ":" + kind;
      s.audio = audio_dir / clip_name;
      s.fields = {{"text_a", (*pair)[0]},
                  {"text_b", (*pair)[1]},
                  {"sources", {(*pair)[2], (*pair)[3]}},
                  {"category", category_of(kind, layout)}};
      if (layout.truth_from_votes) {
        if (!pair->back().is_array() || pair->back().empty())
          throw bad("not [caption 1, caption 2, source 1, source 2, [votes]]");
        long sum = 0;
        for (const auto& vote : pair->back()) {
          if (!vote.is_number_integer() || vote.get<long>() < -1 || vote.get<long>() > 1)
            throw bad("a vote other than 1, 0 or -1: " + vote.dump());
          sum += vote.get<long>();
        }
        if (sum == 0) {
          ++out.ties;
          continue;
        }
        s.fields["votes"] = pair->back();
        s.fields["first_preferred"] = sum > 0 ? "yes" : "no";
      } else {
        const bool first = (*pair)[2] == "human", second = (*pair)[3] == "human";
        if (first == second) throw bad("not one caption whose source is human: " + s.fields["sources"].dump());
        s.fields["first_preferred"] = first ? "yes" : "no";
      }
      out.samples.push_back(std::move(s));
    }
  }
  if (out.samples.empty())
    throw Error(ErrorCategory::data, fmt::format("{}: no pair of captions that people did not tie on", file.string()));
  return out;
}

const DatasetClasses::Registration kCaptionPreferencesClass{
    {Kind::dataset, "caption_preferences",
     "People's choices between two captions of a clip (FENSE's AudioCaps-Eval and Clotho-Eval, BRACE): a sample per "
     "pair, captions text_a and text_b, first_preferred (yes or no) from the votes' sum (or which is human), category "
     "the kind of pair; ties left out",
     [] {
       auto args = source_args("the JSON array of clips");
       args.insert(args.end(),
                   {arg::texts("name_fields", {"raw_name"},
                               "the members naming a clip's file in audio_dir, the first a clip has (AudioCaps-Eval: "
                               "raw_name, else audio_id)"),
                    arg::text("audio_suffix", "", "appended to a clip's name without an extension (.wav)"),
                    arg::texts("kinds", {"HC", "HI", "HM", "MM_1", "MM_2", "MM_3", "MM_4", "MM_5"},
                               "the members holding pairs; a sample's category is the name up to its first _; "
                               "[\"*\"]: every member but the name fields and not_pairs (BRACE)"),
                    arg::texts("not_pairs", {"references"}, "with kinds [\"*\"]: the members that hold no pair"),
                    arg::map("categories",
                             "a category for a kind's name up to its first _ ({Human-Human: HH}); others are "
                             "that name",
                             false),
                    arg::choice("truth", "votes", {"votes", "human_source"},
                                "which caption people preferred: the sign of the votes' sum (the last element), or "
                                "the one whose source is human (BRACE-Hallucination)"),
                    arg::path("audio_dir", "", "the folder of the clips (default: the JSON's folder)")});
       return with_catalog_args(std::move(args));
     }()},
    [](const Args& args) {
      Dataset d;
      const SourceLocation source = locate_source(args);
      const fs::path audio_dir = audio_dir_arg(args, source.path.parent_path(), d.audio_dir_missing);
      PreferenceLayout layout{args.strings("name_fields"), args.text("audio_suffix"), args.strings("kinds"),
                              args.strings("not_pairs"), {}, args.text("truth") == "votes"};
      if (layout.name_fields.empty() || layout.kinds.empty()) args.fail("name_fields and kinds name at least one member");
      if (args.given("categories"))
        for (const auto& category : args.node("categories")) {
          if (!category.second.IsScalar()) args.fail("categories maps a kind's name to a category's");
          layout.categories[category.first.as<std::string>()] = category.second.as<std::string>();
        }
      Preferences read = read_caption_preferences(source.path, audio_dir, layout);
      d.name = args.entry().name;
      d.samples = std::move(read.samples);
      d.description = source.description;
      d.description["class"] = "caption_preferences";
      d.description["pairs"] = d.samples.size();
      d.description["ties_left_out"] = read.ties;
      return d;
    }};

}  // namespace

}  // namespace aeval::datasets
