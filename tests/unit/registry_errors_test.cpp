// Registry mistakes that used to pass silently or be reported without their
// place: each is refused with the file and line it is on.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "tasks/task.hpp"
#include "registry/registry.hpp"
#include "support/config_error.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::registry::Registry;
using aeval::testing::config_error;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The error loading the built-in registry plus a folder with `file` (under `kind`) holding `yaml`.
std::string load_error(const TempDir& dir, const std::string& kind, const std::string& file, const std::string& yaml) {
  std::filesystem::create_directories(dir / kind);
  write_bytes(dir / kind / file, yaml);
  return config_error([&] { Registry({aeval::registry::builtin_registry_dir(), dir.path()}); });
}

TEST(RegistryErrors, AnEntryNameWrittenTwiceInOneFileNamesBothLines) {
  TempDir dir;
  const std::string message = load_error(dir, "evaluators", "e.yaml",
                                         "mine:\n  class: error_rate\n"
                                         "other:\n  class: error_rate\n"
                                         "mine:\n  class: error_rate\n  args:\n    unit: chars\n");
  EXPECT_TRUE(contains(message, "e.yaml:5: 'mine' is written twice in one map (first at line 1)")) << message;
}

TEST(RegistryErrors, AnArgumentWrittenTwiceNamesBothLines) {
  TempDir dir;
  const std::string message =
      load_error(dir, "evaluators", "e.yaml", "mine:\n  class: error_rate\n  args:\n    unit: words\n    unit: chars\n");
  EXPECT_TRUE(contains(message, "e.yaml:5: 'unit' is written twice in one map (first at line 4)")) << message;
}

TEST(RegistryErrors, OneNameInTwoFilesOfOneFolderIsRefused) {
  TempDir dir;
  std::filesystem::create_directories(dir / "evaluators");
  write_bytes(dir / "evaluators" / "a.yaml", "mine:\n  class: error_rate\n");
  const std::string message = load_error(dir, "evaluators", "b.yaml", "\nmine:\n  class: error_rate\n");
  EXPECT_TRUE(contains(message, "b.yaml:2: evaluator 'mine' is already defined at")) << message;
  EXPECT_TRUE(contains(message, "a.yaml:1")) << message;
}

TEST(RegistryErrors, ALaterFolderStillOverridesAnEarlierOne) {
  TempDir dir;
  std::filesystem::create_directories(dir / "evaluators");
  write_bytes(dir / "evaluators" / "e.yaml", "wer:\n  class: error_rate\n  args:\n    unit: chars\n");
  const Registry registry({aeval::registry::builtin_registry_dir(), dir.path()});
  EXPECT_EQ(registry.get(aeval::registry::Kind::evaluator, "wer").file, dir / "evaluators" / "e.yaml");
}

TEST(RegistryErrors, DeepNestingSaysSoWithItsLine) {
  TempDir dir;
  const std::string message =
      load_error(dir, "evaluators", "e.yaml", "mine:\n  class: error_rate\n  args: " + std::string(3000, '[') + std::string(3000, ']') + "\n");
  EXPECT_TRUE(contains(message, "e.yaml:3: malformed YAML: nested too deeply")) << message;
}

// yaml-cpp links an alias to the node its anchor marks: this one is a cycle, which every check that
// walked the entry followed until the stack ran out.
TEST(RegistryErrors, AnAnchorUsedInsideItselfIsRefusedWithItsLine) {
  TempDir dir;
  const std::string message =
      load_error(dir, "evaluators", "e.yaml", "mine:\n  class: error_rate\n  args:\n    unit: &s [*s]\n");
  EXPECT_TRUE(contains(message, "e.yaml:4: aliases unfold deeper than 2000 levels (an anchor used inside itself?)"))
      << message;
}

// Nine lines unfolding to 10^9 values ("billion laughs"): refused by count, in moments.
TEST(RegistryErrors, AnchorsRepeatingAnchorsAreRefusedWithTheirEntrysLine) {
  TempDir dir;
  std::string yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i) {
    yaml += fmt::format("a{}: &a{} [", i, i);
    for (int k = 0; k < 10; ++k) yaml += fmt::format("{}*a{}", k ? ", " : "", i - 1);
    yaml += "]\n";
  }
  const std::string message = load_error(dir, "evaluators", "e.yaml", yaml);
  EXPECT_TRUE(contains(message, "e.yaml:9: aliases unfold to more than 100000 values (anchors repeating anchors?)"))
      << message;
}

TEST(RegistryErrors, AnAnchorUsedInsideItselfInASetIsRefused) {
  TempDir dir;
  std::filesystem::create_directories(dir / "evaluators");
  write_bytes(dir / "evaluators" / "e.yaml", "mine:\n  class: error_rate\n");
  Registry registry({aeval::registry::builtin_registry_dir(), dir.path()});
  const std::string message = config_error([&] { aeval::registry::apply_assignment(registry, "mine.unit=&s [*s]"); });
  EXPECT_TRUE(contains(message, "--set mine.unit=&s [*s]: VALUE:1: aliases unfold deeper than 2000 levels")) << message;
}

// YAML reads .nan and .inf as numbers, every range check lets NaN through, and JSON has neither:
// `temperature: .nan` went to the server as null.
TEST(RegistryErrors, ANumberThatIsNotFiniteIsRefusedWithItsLine) {
  for (const char* value : {".nan", ".inf", "-.Inf"}) {
    TempDir dir;
    const std::string message = load_error(dir, "models", "m.yaml",
                                           fmt::format("r:\n  class: openai_chat\n  args:\n    base_url: http://x/v1\n"
                                                       "    model: m\n    temperature: {}\n",
                                                       value));
    EXPECT_TRUE(contains(message, fmt::format("m.yaml:6: argument 'temperature' of 'r' must be a finite number, not {}",
                                              value)))
        << message;
  }
  TempDir dir;  // a range does not let it through either
  EXPECT_TRUE(contains(load_error(dir, "aggregators", "a.yaml", "mine:\n  class: summary\n  args:\n    confidence: .nan\n"),
                       "a.yaml:4: argument 'confidence' of 'mine' must be a finite number, not .nan"));
}

TEST(RegistryErrors, ATopLevelListHasALineAndSaysWhatItHolds) {
  TempDir dir;
  const std::string message = load_error(dir, "evaluators", "e.yaml", "# a list by mistake\n- wer\n- cer\n");
  EXPECT_TRUE(contains(message, "e.yaml:2: a registry file maps names to {class, args}; this one holds a list"))
      << message;
}

TEST(RegistryErrors, AnEmptyFileSaysItIsEmpty) {
  TempDir dir;
  const std::string message = load_error(dir, "evaluators", "e.yaml", "");
  EXPECT_TRUE(contains(message, "e.yaml:1: a registry file maps names to {class, args}; this one is empty")) << message;
}

TEST(RegistryErrors, ASetValueErrorSaysItCameFromTheSet) {
  TempDir dir;
  std::filesystem::create_directories(dir / "evaluators");
  write_bytes(dir / "evaluators" / "e.yaml", "mine:\n  class: error_rate\n  args:\n    unit: words\n");
  Registry registry({aeval::registry::builtin_registry_dir(), dir.path()});
  const std::string message = config_error([&] { aeval::registry::apply_assignment(registry, "mine.unit=letters"); });
  EXPECT_TRUE(contains(message, "--set mine.unit=letters: ")) << message;
  EXPECT_TRUE(contains(message, "argument 'unit' of 'mine' must be one of words, chars")) << message;
  EXPECT_FALSE(contains(message, "e.yaml:4")) << "the line the --set replaced is not where the error is: " << message;
}

TEST(RegistryErrors, ANegativeConcurrencyIsRefusedWithItsLine) {
  TempDir dir;
  const std::string message = load_error(dir, "models", "m.yaml",
                                         "scorer:\n  class: dataset_only\n  args:\n    max_concurrency: -1\n");
  EXPECT_TRUE(contains(message, "m.yaml:4: argument 'max_concurrency' of 'scorer' must be at least 1, not -1"))
      << message;
}

TEST(RegistryErrors, RangesAreTheDeclarationsOwnWhateverTheClass) {
  TempDir dir;
  // An open interval (a confidence level), a bound excluded (a timeout), as the declarations state them.
  EXPECT_TRUE(contains(load_error(dir, "aggregators", "a.yaml", "mine:\n  class: summary\n  args:\n    confidence: 1\n"),
                       "a.yaml:4: argument 'confidence' of 'mine' must be above 0 and below 1, not 1"));
  TempDir other;
  EXPECT_TRUE(contains(load_error(other, "models", "m.yaml",
                                  "p:\n  class: process\n  args:\n    command: [x]\n    timeout_seconds: 0\n"),
                       "m.yaml:5: argument 'timeout_seconds' of 'p' must be above 0, not 0"));
  TempDir third;
  EXPECT_TRUE(contains(load_error(third, "models", "m.yaml",
                                  "r:\n  class: openai_chat\n  args:\n    base_url: http://x/v1\n    model: m\n"
                                  "    outage_seconds: -1\n"),
                       "m.yaml:6: argument 'outage_seconds' of 'r' must be at least 0, not -1"));
  TempDir fourth;  // (the endpoint's constructor no longer checks it a second time)
  EXPECT_TRUE(contains(load_error(fourth, "models", "m.yaml",
                                  "r:\n  class: openai_chat\n  args:\n    base_url: http://x/v1\n    model: m\n"
                                  "    max_concurrency: 0\n"),
                       "m.yaml:6: argument 'max_concurrency' of 'r' must be at least 1, not 0"));
}

TEST(RegistryErrors, ANegativeConcurrencyFromSetIsRefused) {
  TempDir dir;
  std::filesystem::create_directories(dir / "models");
  write_bytes(dir / "models" / "m.yaml", "scorer:\n  class: dataset_only\n");
  Registry registry({aeval::registry::builtin_registry_dir(), dir.path()});
  const std::string message =
      config_error([&] { aeval::registry::apply_assignment(registry, "scorer.max_concurrency=0"); });
  EXPECT_TRUE(contains(message, "--set scorer.max_concurrency=0: ")) << message;
  EXPECT_TRUE(contains(message, "must be at least 1, not 0")) << message;
}

TEST(RegistryErrors, ADatasetPathThatIsNotJsonlSaysManifestsEndInJsonl) {
  const Registry registry({aeval::registry::builtin_registry_dir()});
  aeval::pipeline::TaskOverrides overrides;
  overrides.dataset = "data/x.json";
  const std::string message = config_error([&] { aeval::pipeline::resolve_task(registry, "asr-quickstart", overrides); });
  EXPECT_TRUE(contains(message, "unknown dataset 'data/x.json'")) << message;
  EXPECT_TRUE(contains(message, "must end in .jsonl")) << message;
  overrides.dataset = "asterisk";  // a misspelt name gets no note about files
  EXPECT_FALSE(contains(config_error([&] { aeval::pipeline::resolve_task(registry, "asr-quickstart", overrides); }),
                        ".jsonl"));
}

}  // namespace
