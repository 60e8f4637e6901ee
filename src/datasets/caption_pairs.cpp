// The `caption_pairs` dataset class: a CSV of compositional items (CompA), two
// clips and two captions each, caption 1 describing clip 1 and caption 2
// clip 2, and the pair telling them apart by order or attribute. Every item
// becomes four samples, each clip with each caption, so that a judge asked one
// question per request scores all four; winoground_score puts them together.
#include <fmt/format.h>

#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "datasets/table_reader.hpp"
#include "registry/args.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;
using pipeline::Sample;

namespace {

namespace fs = std::filesystem;

std::vector<Sample> read_caption_pairs(const fs::path& file, const std::vector<std::string>& captions,
                                       const std::vector<std::string>& clips, const fs::path& audio_dir) {
  const TableReader table = TableReader::csv(file);
  std::vector<std::string> expressions;
  // A name the header repeats is DuckDB's NAME_1 the second time (CompA-attribute's header names pair_file
  // twice; pandas calls the second one pair_file.1).
  for (const auto* names : {&clips, &captions})
    for (const auto& name : *names) {
      table.column_index(name);  // there, or an error listing those that are
      expressions.push_back(TableReader::quoted(name));
    }
  std::vector<Sample> samples;
  std::size_t item = 0;
  table.scan(expressions, [&](TableRow& row) {
    ++item;
    for (std::size_t k = 0; k < row.size(); ++k)
      if (!row[k] || row[k]->empty())
        throw Error(ErrorCategory::data, fmt::format("{}: item {} has no {}", file.string(), item,
                                                     k < 2 ? clips[k] : captions[k - 2]));
    for (int a = 0; a < 2; ++a)
      for (int c = 0; c < 2; ++c) {
        Sample s;
        s.id = fmt::format("{}:clip{}-caption{}", item, a + 1, c + 1);
        s.audio = audio_dir / *row[std::size_t(a)];
        s.reference = *row[2 + std::size_t(c)];
        s.fields = {{"item", std::to_string(item)}, {"clip", a + 1}, {"caption", c + 1}};
        samples.push_back(std::move(s));
      }
  });
  if (samples.empty()) throw Error(ErrorCategory::data, file.string() + ": no items");
  return samples;
}

const DatasetClasses::Registration kCaptionPairsClass{
    {Kind::dataset, "caption_pairs",
     "A CSV of compositional items (CompA): two clips and two captions, caption 1 describing clip 1; each clip "
     "with each caption is a sample, four an item",
     [] {
       auto args = source_args("the CSV");
       args.insert(args.end(),
                   {arg::texts("caption_columns", {"pair_caption", "reversed_pair_caption"},
                               "the two captions, the first describing the first clip"),
                    arg::texts("clip_columns", {"pair_file", "reversed_pair_file"}, "the two clips' paths in audio_dir"),
                    arg::path("audio_dir", "", "the folder of the clips (the unpacked archive's files folder)")});
       return with_catalog_args(std::move(args));
     }()},
    [](const Args& args) {
      const auto captions = args.strings("caption_columns"), clips = args.strings("clip_columns");
      if (captions.size() != 2 || clips.size() != 2) args.fail("caption_columns and clip_columns name two columns each");
      Dataset d;
      const SourceLocation source = locate_source(args);
      const fs::path audio_dir = audio_dir_arg(args, source.path.parent_path(), d.audio_dir_missing);
      d.name = args.entry().name;
      d.samples = read_caption_pairs(source.path, captions, clips, audio_dir);
      d.description = source.description;
      d.description["class"] = "caption_pairs";
      d.description["items"] = d.samples.size() / 4;
      d.description["samples"] = d.samples.size();
      return d;
    }};

}  // namespace

}  // namespace aeval::datasets
