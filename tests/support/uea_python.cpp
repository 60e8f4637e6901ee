#include "support/uea_python.hpp"

#include <fmt/format.h>

#include "support/reference.hpp"
#include "support/run_aeval.hpp"

namespace aeval::testing {

namespace {

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

}  // namespace

std::string uea_python_path() {
  const auto out = std::filesystem::temp_directory_path() / "aeval-tests-uea-python";
  const auto prepared = run_shell(fmt::format("{} {}/tests/support/uea_python/prepare.py {} {} 2>&1", kDebianPython,
                                              AEVAL_SOURCE_DIR, quoted(shared_uea_dir().parent_path()), quoted(out)));
  if (prepared.status != 0) return "";
  std::string path = prepared.output;
  while (!path.empty() && path.back() == '\n') path.pop_back();
  return path.substr(path.rfind('\n') == std::string::npos ? 0 : path.rfind('\n') + 1);
}

bool write_coco_standins(const std::filesystem::path& folder) {
  return run_shell(fmt::format("{} {}/tests/support/uea_python/coco_standin.py {} 2>&1", kDebianPython,
                               AEVAL_SOURCE_DIR, quoted(folder)))
             .status == 0;
}

}  // namespace aeval::testing
