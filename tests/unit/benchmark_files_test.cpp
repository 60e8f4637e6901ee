// A benchmark in one file: registry/benchmarks/NAME.yaml holds its dataset, prompt and task (any kind, in
// fact), each an entry named NAME, entries named otherwise under their kind's folder name (datasets,
// tasks, ...), and the Hub schema the catalog test serves. Mistakes in it are refused
// with their line, like any registry entry's.
#include <gtest/gtest.h>

#include "tasks/task.hpp"
#include "registry/registry.hpp"
#include "support/config_error.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::registry::Kind;
using aeval::registry::Registry;
using aeval::testing::config_error;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A benchmark of its own: a manifest, the prompt its task sends, the task scoring it.
const char* kMine = R"(# My benchmark.
dataset:
  class: jsonl
  args:
    path: m.jsonl
    default_task: mine
prompt:
  class: chat
  args:
    messages:
      - role: user
        content:
          - {type: audio, value: "{{ audio }}"}
          - {type: text, value: "Transcribe."}
task:
  class: task
  args:
    dataset: mine
    prompt: mine
    model: pocketsphinx-en
    evaluators: [wer]
hub_schema:
  audio: audio
  text: string
)";

std::string load_error(const TempDir& dir, const std::string& yaml) {
  std::filesystem::create_directories(dir / "benchmarks");
  write_bytes(dir / "benchmarks" / "mine.yaml", yaml);
  return config_error([&] { Registry({aeval::registry::builtin_registry_dir(), dir.path()}); });
}

TEST(BenchmarkFiles, EachPartIsAnEntryNamedAfterTheFile) {
  TempDir dir;
  std::filesystem::create_directories(dir / "benchmarks");
  write_bytes(dir / "benchmarks" / "mine.yaml", kMine);
  const Registry registry({aeval::registry::builtin_registry_dir(), dir.path()});
  for (const Kind kind : {Kind::dataset, Kind::prompt, Kind::task}) {
    ASSERT_TRUE(registry.contains(kind, "mine")) << aeval::registry::kind_name(kind);
    EXPECT_EQ(registry.get(kind, "mine").file, dir / "benchmarks" / "mine.yaml");
  }
  EXPECT_EQ(registry.get(Kind::dataset, "mine").line, 2);
  EXPECT_EQ(registry.get(Kind::task, "mine").line, 15);
  const auto task = aeval::pipeline::resolve_task(registry, "mine");
  EXPECT_EQ(task.dataset, "mine");
  EXPECT_EQ(task.prompt, "mine");
  EXPECT_EQ(task.evaluators, (std::vector<std::string>{"wer"}));
}

// Several tasks on one set, and names users' --set lines spell: entries under a kind folder's name.
TEST(BenchmarkFiles, EntriesNamedOtherwiseGoUnderTheirKindsFolderName) {
  TempDir dir;
  std::filesystem::create_directories(dir / "benchmarks");
  write_bytes(dir / "benchmarks" / "mine.yaml",
              "datasets:\n  mine-clips:\n    class: jsonl\n    args: {path: m.jsonl}\n"
              "tasks:\n  mine-wer:\n    class: task\n    args: {dataset: mine-clips, model: pocketsphinx-en, evaluators: [wer]}\n"
              "  mine-cer:\n    class: task\n    args: {dataset: mine-clips, model: pocketsphinx-en, evaluators: [cer]}\n");
  const Registry registry({aeval::registry::builtin_registry_dir(), dir.path()});
  EXPECT_FALSE(registry.contains(Kind::dataset, "mine"));
  EXPECT_EQ(registry.get(Kind::dataset, "mine-clips").line, 2);
  EXPECT_EQ(registry.get(Kind::task, "mine-cer").line, 9);
  EXPECT_EQ(registry.get(Kind::task, "mine-cer").file, dir / "benchmarks" / "mine.yaml");
  EXPECT_EQ(aeval::pipeline::resolve_task(registry, "mine-wer").dataset, "mine-clips");
  const std::string message = load_error(dir, "tasks: [mine-wer]\n");
  EXPECT_TRUE(contains(message, "mine.yaml:1: 'tasks' maps names to {class, args}, as a file of registry/tasks does"))
      << message;
}

TEST(BenchmarkFiles, ANameAlsoInAKindFolderOfTheSameRegistryIsRefused) {
  TempDir dir;
  std::filesystem::create_directories(dir / "datasets");
  write_bytes(dir / "datasets" / "d.yaml", "mine:\n  class: jsonl\n  args:\n    path: m.jsonl\n");
  const std::string message = load_error(dir, kMine);
  EXPECT_TRUE(contains(message, "mine.yaml:2: dataset 'mine' is already defined at")) << message;
  EXPECT_TRUE(contains(message, "d.yaml:1")) << message;
}

TEST(BenchmarkFiles, AnUnknownPartIsRefusedWithItsLine) {
  TempDir dir;
  const std::string message = load_error(dir, "dataset:\n  class: jsonl\n  args:\n    path: m.jsonl\ntsak:\n  class: task\n");
  EXPECT_TRUE(contains(message, "mine.yaml:5: 'tsak' is not a part of a benchmark")) << message;
}

TEST(BenchmarkFiles, APartIsValidatedAsAnyEntry) {
  TempDir dir;
  const std::string message = load_error(dir, "dataset:\n  class: jsonl\n  args:\n    path: m.jsonl\n    limt: 3\n");
  EXPECT_TRUE(contains(message, "mine.yaml:5")) << message;
  EXPECT_TRUE(contains(message, "unknown argument 'limt'")) << message;
}

TEST(BenchmarkFiles, AHubSchemaMapsColumnsToOneTypeEach) {
  TempDir dir;
  EXPECT_TRUE(contains(load_error(dir, "hub_schema: [audio, text]\n"), "mine.yaml:1: hub_schema maps each column"));
  const std::string message = load_error(dir, "hub_schema:\n  audio: audio\n  text: [string]\n");
  EXPECT_TRUE(contains(message, "mine.yaml:3: column 'text' of hub_schema needs one type")) << message;
}

TEST(BenchmarkFiles, AFileOfAnythingButAMapSaysWhatItHolds) {
  TempDir dir;
  const std::string message = load_error(dir, "- dataset\n- task\n");
  EXPECT_TRUE(contains(message, "a benchmark file maps kinds")) << message;
  EXPECT_TRUE(contains(message, "holds a list")) << message;
}

}  // namespace
