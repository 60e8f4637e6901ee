// docs/framework.md's table of classes names every class the code declares,
// each in its kind's row: the table a newcomer reads cannot fall behind.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "registry/classes.hpp"
#include "support/temp_dir.hpp"

namespace {

TEST(DocsClasses, FrameworkTableNamesEveryClassInItsKindsRow) {
  const std::string doc = aeval::testing::read_bytes(std::filesystem::path(AEVAL_SOURCE_DIR) / "docs" / "framework.md");
  std::map<std::string, std::string> rows;  // kind → its table row
  std::istringstream lines(doc);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("| ", 0) == 0 && line.find(" | ", 2) != std::string::npos)
      rows.emplace(line.substr(2, line.find(" | ", 2) - 2), line);
  std::size_t classes = 0;
  for (const auto* spec : aeval::registry::class_catalog()) {
    if (spec->summary.ends_with("(test only)")) continue;  // declared by a test of this binary
    const std::string kind = aeval::registry::kind_name(spec->kind);
    ++classes;
    if (!rows.count(kind)) {
      ADD_FAILURE() << "docs/framework.md has no row for " << kind;
      continue;
    }
    EXPECT_NE(rows[kind].find("`" + spec->id + "`"), std::string::npos)
        << "docs/framework.md's " << kind << " row does not name class `" << spec->id << "`: " << spec->summary;
  }
  EXPECT_GT(classes, 30u);
}

}  // namespace
