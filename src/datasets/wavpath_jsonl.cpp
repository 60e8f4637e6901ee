// The `wavpath_jsonl` dataset class: UltraEval-Audio's JSONL lists, whose
// rows name their audio in a `WavPath` column (relative to the file), read
// as any manifest whose audio field is `WavPath`.
#include "aeval/error.hpp"
#include "datasets/dataset.hpp"
#include "datasets/dataset_source.hpp"
#include "datasets/manifest.hpp"
#include "registry/args.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::Kind;

namespace {

namespace fs = std::filesystem;

struct WavPathFields {
  std::string id = "id";  // rows without it are numbered by line
  std::string audio = "WavPath";
  std::string text = "text";  // UltraEval-Audio's `ref_col`
};

const WavPathFields kWavPathDefaults;
const DatasetClasses::Registration kWavPathClass{
    {Kind::dataset, "wavpath_jsonl", "UltraEval-Audio's JSONL lists: audio in `WavPath`, relative to the file",
     [] {
       auto args = source_args("the JSONL file");
       args.insert(args.end(), {arg::text("id_field", kWavPathDefaults.id, "field with the sample id (else: line)"),
                                arg::text("audio_field", kWavPathDefaults.audio, "field with the audio path"),
                                arg::text("text_field", kWavPathDefaults.text, "field with the reference text")});
       return with_catalog_args(std::move(args));
     }()},
    [](const Args& args) {
      const SourceLocation source = locate_source(args);
      if (!fs::is_regular_file(source.path))
        throw Error(ErrorCategory::data, args.entry().where() + ": no JSONL file " + source.path.string());
      ManifestFields fields;
      fields.id = args.text("id_field");
      fields.audio = args.text("audio_field");
      fields.text = args.text("text_field");
      Dataset d;
      d.name = args.entry().name;
      d.samples = read_manifest(source.path, fields);
      d.description = source.description;
      d.description["class"] = "wavpath_jsonl";
      d.description["manifest"] = source.path.string();
      d.description["samples"] = d.samples.size();
      return d;
    }};

}  // namespace

}  // namespace aeval::datasets
