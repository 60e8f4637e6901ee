// Every Hub repository the README and docs/ name is one a registry entry reads (aeval's registry/ or
// UltraEval-Audio's pinned one), and every revision they give it is the one that entry reads: a doc
// cannot send a reader to a copy, or a commit, that no run touches. Repositories are read from prose
// (fenced code blocks are examples of one's own entries): `owner/name` or `owner/name@revision` in
// backticks, the catalog's `hub owner/name config/split@revision` cells, and huggingface.co/datasets/
// addresses.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "datasets/hub_split.hpp"
#include "registry/args.hpp"
#include "registry/registry.hpp"
#include "uea/uea_entries.hpp"
#include "support/reference.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::registry::Kind;

// Backticked names shaped like owner/name that are no Hub repository, each with what it is.
const std::map<std::string, std::string> kNotRepositories = {
    {"audio/wav", "a MIME type (docs/view.md)"},
    {"build/python", "the Python package in the build folder (docs/python.md)"},
    {"data/test_other-00000-of-00001.parquet", "a file of a Hub repository, split inference (docs/datasets.md)"},
    {"long-tts-wer-en/zh", "the evaluators long-tts-wer-en and long-tts-wer-zh (docs/uea.md)"}};

struct Read {
  std::string config, split, revision, entry;
};

struct Registries {
  std::map<std::string, std::vector<Read>> reads;  // repository → the splits dataset entries read
  std::set<std::string> named;                     // every argument value of every entry (models' weights too)
};

// Every scalar, and the repository of a Hub dataset's address (an entry's homepage names the repository it is
// published in, for files the user downloads).
void add_scalars(const YAML::Node& node, std::set<std::string>& out) {
  static const std::regex hub_address(R"(^https://huggingface\.co/datasets/([\w.-]+/[\w.-]+)/?$)");
  std::smatch m;
  if (node.IsScalar() && std::regex_match(node.Scalar(), m, hub_address)) out.insert(m[1]);
  if (node.IsScalar()) out.insert(node.Scalar());
  else if (node.IsSequence())
    for (const auto& item : node) add_scalars(item, out);
  else if (node.IsMap())
    for (const auto& item : node) add_scalars(item.second, out);
}

void add_registry(const aeval::registry::Registry& registry, const std::string& label, Registries& out) {
  for (const Kind kind : aeval::registry::kAllKinds)
    for (const auto& name : registry.names(kind)) add_scalars(registry.get(kind, name).args, out.named);
  for (const auto& name : registry.names(Kind::dataset)) {
    const auto& entry = registry.get(Kind::dataset, name);
    const aeval::registry::Args args(entry, aeval::registry::class_spec(entry, Kind::dataset));
    for (const auto& r : aeval::datasets::hub_splits_read(args))
      out.reads[r.repo].push_back({r.config, r.split, r.revision, label + " " + name});
  }
}

// Loaded once: UEA's registry takes a while to translate.
const Registries& registries() {
  static const Registries loaded = [] {
    Registries r;
    add_registry(aeval::registry::Registry({fs::path(AEVAL_SOURCE_DIR) / "registry"}), "aeval", r);
    const aeval::uea::UeaRegistry uea(aeval::testing::shared_uea_dir());
    add_registry(aeval::uea::translate_registry(uea).registry, "UEA", r);
    for (const char* kind : aeval::uea::kKinds)  // unsupported entries too: UEA reads what they name
      for (const auto& [name, entry] : uea.entries(kind)) add_scalars(entry.args, r.named);
    return r;
  }();
  return loaded;
}

bool same_revision(const std::string& written, const std::string& read) {
  static const std::regex short_commit("[0-9a-f]{7,40}");
  return written == read || (read.size() == 40 && std::regex_match(written, short_commit) && read.starts_with(written));
}

struct Mention {
  std::string repo, revision, config, split;  // the last three "" where the doc gives none
  bool hub_cell = false;
};

// What is wrong with one mention, or "".
std::string problem(const Mention& m, const Registries& r) {
  const auto found = r.reads.find(m.repo);
  if (found == r.reads.end()) {
    if (m.revision.empty() && r.named.count(m.repo)) return "";
    return "`" + m.repo + "` is read by no registry entry" +
           (r.named.count(m.repo) ? " at a revision (only named as an argument)"
                                  : " (a name that is no Hub repository goes in kNotRepositories, with what it is)");
  }
  std::string reads;
  for (const auto& read : found->second) {
    if ((m.revision.empty() || same_revision(m.revision, read.revision)) &&
        (!m.hub_cell || (read.config == m.config && read.split == m.split)))
      return "";
    reads += "\n    " + read.entry + ": " + read.config + "/" + read.split + "@" + read.revision;
  }
  return "`" + m.repo + "` " + (m.hub_cell ? m.config + "/" + m.split : "") + "@" + m.revision +
         " is not what its entries read:" + reads;
}

// The Hub repositories a Markdown text names, outside fenced code blocks, each with its line.
std::vector<std::pair<int, Mention>> mentions(const std::string& text) {
  static const std::regex backticked(R"(`([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*?)(?:@([\w.-]+))?`)");
  static const std::regex hub_cell(R"(\bhub ([\w.-]+/[\w.-]+) ([\w.-]+)/([\w.-]*)@([\w.-]+))");
  static const std::regex hub_address(R"(huggingface\.co/datasets/([\w.-]+/[\w.-]+))");
  static const std::regex file_name(R"(.*\.[a-z]{1,5})");
  const fs::path root(AEVAL_SOURCE_DIR);
  const auto is_path = [&](const std::string& name) {
    const std::string first = name.substr(0, name.find('/'));
    return std::regex_match(name, file_name) || fs::is_directory(root / first) ||
           fs::is_directory(root / "src" / first) || fs::is_directory(root / "include" / first);
  };
  std::vector<std::pair<int, Mention>> out;
  std::istringstream lines(text);
  bool fenced = false;
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.rfind("```", 0) == 0) fenced = !fenced;
    if (fenced || line.rfind("```", 0) == 0) continue;
    for (std::sregex_iterator m(line.begin(), line.end(), backticked), end; m != end; ++m) {
      const std::string name = (*m)[1];
      const bool short_part = name.find('/') < 2 || name.size() - name.find('/') < 3;  // `I/N`, `digits/0`
      if (short_part || kNotRepositories.count(name) || is_path(name)) continue;
      out.push_back({number, {name, (*m)[2], "", "", false}});
    }
    for (std::sregex_iterator m(line.begin(), line.end(), hub_cell), end; m != end; ++m)
      out.push_back({number, {(*m)[1], (*m)[4], (*m)[2], (*m)[3], true}});
    for (std::sregex_iterator m(line.begin(), line.end(), hub_address), end; m != end; ++m)
      out.push_back({number, {(*m)[1], "", "", "", false}});
  }
  return out;
}

std::vector<std::string> problems(const std::string& text, const std::string& file) {
  std::vector<std::string> out;
  for (const auto& [line, mention] : mentions(text))
    if (const auto p = problem(mention, registries()); !p.empty())
      out.push_back(file + ":" + std::to_string(line) + ": " + p);
  return out;
}

TEST(DocsHubRepos, EveryRepositoryTheDocsNameIsReadByARegistryEntryAtTheRevisionTheyGive) {
  AEVAL_REQUIRE_SHARED_UEA();
  const fs::path root(AEVAL_SOURCE_DIR);
  std::vector<fs::path> files{root / "README.md"};
  for (const auto& f : fs::directory_iterator(root / "docs"))
    if (f.path().extension() == ".md") files.push_back(f.path());
  std::size_t named = 0;
  for (const auto& file : files) {
    const std::string text = aeval::testing::read_bytes(file);
    named += mentions(text).size();
    for (const auto& p : problems(text, fs::relative(file, root).string())) ADD_FAILURE() << p;
  }
  EXPECT_GE(named, 20u) << "the docs' repositories were not found: has their form changed?";
}

TEST(DocsHubRepos, AMadeUpRepositoryOrAWrongRevisionOrSplitIsCaught) {
  AEVAL_REQUIRE_SHARED_UEA();
  EXPECT_TRUE(problems("LLaMA-Questions reads `TwinkStart/llama-questions@main` (split `test`).", "ok").empty());
  EXPECT_TRUE(problems("`damo/speech_eres2net_sv_en_voxceleb_16k`, a model UEA's registry names", "ok").empty());
  EXPECT_TRUE(problems("`src/datasets`, `scripts/setup.sh`, `digits/0`, `audio/wav`", "ok").empty());
  EXPECT_TRUE(problems("```\nrepo: `made-up/repository`\n```", "ok").empty()) << "code blocks are examples";
  EXPECT_EQ(problems("LLaMA-Questions reads `fixie-ai/llama-questions`.", "f").size(), 1u);
  EXPECT_EQ(problems("`TwinkStart/speech-triavia-qa@0123456789abcdef0123456789abcdef01234567`", "f").size(), 1u);
  EXPECT_EQ(problems("| hub TwinkStart/AudioCaps default/train@main |", "f").size(), 1u);
  EXPECT_EQ(problems("see huggingface.co/datasets/made-up/repository", "f").size(), 1u);
  EXPECT_EQ(problems("`damo/speech_eres2net_sv_en_voxceleb_16k@v1.0.2`", "f").size(), 1u)
      << "a model's weights: no dataset entry reads it at a revision";
}

}  // namespace
