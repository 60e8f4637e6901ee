// Every `aeval` command shown in the README and docs/ is one the CLI reads as
// written: its commands, options and values exist (AEVAL_CHECK_COMMAND_LINE
// stops aeval once the line is read). The files and folders a line names are
// made first, in a scratch folder, for the options that check them.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>

#include "support/run_aeval.hpp"
#include "support/temp_dir.hpp"

namespace {

struct DocCommand {
  std::string where;  // file:line
  std::string arguments;  // after `aeval`
};

std::vector<DocCommand> doc_commands() {
  const std::filesystem::path root(AEVAL_SOURCE_DIR);
  std::vector<std::filesystem::path> files{root / "README.md"};
  for (const auto& f : std::filesystem::directory_iterator(root / "docs"))
    if (f.path().extension() == ".md") files.push_back(f.path());
  std::sort(files.begin(), files.end());
  const std::regex command(R"(^\s*(build/)?aeval (.*)$)");
  std::vector<DocCommand> out;
  for (const auto& file : files) {
    std::ifstream in(file);
    bool fenced = false;
    int number = 0;
    for (std::string line; std::getline(in, line);) {
      ++number;
      if (line.rfind("```", 0) == 0) {
        fenced = !fenced;
        continue;
      }
      std::smatch m;
      if (!fenced || !std::regex_match(line, m, command)) continue;
      std::string arguments = m[2];
      while (!arguments.empty() && arguments.back() == '\\' && std::getline(in, line)) {  // continued lines
        ++number;
        arguments.pop_back();
        arguments += line;
      }
      arguments = std::regex_replace(arguments, std::regex(R"(\s+#\s.*$)"), "");  // a comment after it
      out.push_back({file.filename().string() + ":" + std::to_string(number), arguments});
    }
  }
  return out;
}

// Makes what the line names: an option's folder (--registry, --*-dir, a run folder) or file (a name with an extension).
void make_named_paths(const std::filesystem::path& scratch, const std::string& arguments) {
  std::istringstream words(arguments);
  std::string previous;
  for (std::string word; words >> word; previous = word) {
    if (word.front() == '-' || word.front() == '\'' || word.front() == '"' || word.find("://") != std::string::npos)
      continue;
    const bool folder_option = previous == "--registry" || previous.ends_with("-dir") || previous == "--again";
    const bool looks_like_path = word.find('/') != std::string::npos || folder_option ||
                                 std::regex_match(word, std::regex(R"([\w.-]+\.(txt|jsonl|wav|npy|json))"));
    if (!looks_like_path) continue;
    const auto path = scratch / word;
    if (folder_option || path.extension().empty()) {
      std::filesystem::create_directories(path);
    } else {
      std::filesystem::create_directories(path.parent_path());
      std::ofstream(path) << "";
    }
  }
}

TEST(DocsCommandsE2E, EveryCommandTheDocsShowIsReadAsWritten) {
  const auto commands = doc_commands();
  ASSERT_GT(commands.size(), 20u);
  aeval::testing::TempDir scratch;
  for (const auto& c : commands) {
    make_named_paths(scratch.path(), c.arguments);
    const auto o = aeval::testing::run_shell("cd '" + scratch.path().string() + "' && AEVAL_CHECK_COMMAND_LINE=1 " +
                                             AEVAL_BINARY + " " + c.arguments + " 2>&1");
    EXPECT_EQ(o.status, 0) << c.where << ": aeval " << c.arguments << "\n" << o.output;
  }
}

}  // namespace
