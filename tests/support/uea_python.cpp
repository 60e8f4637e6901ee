#include "support/uea_python.hpp"

#include <fmt/format.h>

#include <fstream>

#include "support/require.hpp"

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

bool write_python_standins(const std::string& script, const std::filesystem::path& folder) {
  return run_shell(fmt::format("{} {}/tests/support/uea_python/{} {} 2>&1", kDebianPython, AEVAL_SOURCE_DIR, script,
                               quoted(folder)))
             .status == 0;
}

std::vector<std::string> lines_of(const std::filesystem::path& file) {
  std::vector<std::string> lines;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) lines.push_back(line);
  return lines;
}

void UeaTreeTest::SetUp() {
  AEVAL_REQUIRE_SHARED_UEA();
  AEVAL_REQUIRE(run_shell(kDebianPython + " -c 'import pandas, yaml, jinja2, requests, tqdm, soundfile, regex, tabulate, "
                                          "colorama, lxml, portalocker, sklearn, openpyxl, Cython' 2>&1")
                        .status == 0,
                "UltraEval-Audio's Python dependencies from Debian (python3-pandas python3-openpyxl cython3 ...)");
  python_path_ = uea_python_path();
  ASSERT_FALSE(python_path_.empty()) << "tests/support/uea_python/prepare.py failed";
  python_path_env_.emplace("PYTHONPATH", python_path_.c_str());
}

void UeaTreeTest::make_tree(int crash) {
  const auto made = run_shell(fmt::format("{} {}/tests/support/uea_python/standin_tree.py {} {} --crash {} 2>&1",
                                          kDebianPython, AEVAL_SOURCE_DIR, quoted(shared_uea_dir().parent_path()),
                                          quoted(dir_.path()), crash));
  ASSERT_EQ(0, made.status) << made.output;
  wheelhouse_.emplace("PIP_FIND_LINKS", (dir_ / "wheelhouse").c_str());
}

Outcome UeaTreeTest::uea_main(const std::string& options) const {
  return run_shell(fmt::format("cd {} && PYTHONPATH={}:\"$PYTHONPATH\" {} -m audio_evals.main {} 2>&1", quoted(dir_ / "uea"),
                               quoted(dir_ / "uea"), kDebianPython, options));
}

}  // namespace aeval::testing
