#pragma once
// UltraEval-Audio's own Python on this machine (tests/support/uea_python/): what its main.py and aeval's bridge
// to UEA's classes need on PYTHONPATH, with Debian's interpreter.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "support/run_aeval.hpp"
#include "support/scoped_env.hpp"
#include "support/temp_dir.hpp"

namespace aeval::testing {

inline const std::string kDebianPython = "/usr/bin/python3";

// The PYTHONPATH under which UEA's main.py imports here, once the dependencies Debian lacks are built
// (../shared/uea-python; kept in the temporary folder between tests); empty when that fails.
std::string uea_python_path();

// Runs uea_python/`script` (coco_standin.py: pycocotools and pycocoevalcap; openai_standin.py: the `openai` SDK),
// which writes stand-ins for Python packages Debian lacks into `folder`: put it first on PYTHONPATH. Returns
// false when the script fails.
bool write_python_standins(const std::string& script, const std::filesystem::path& folder);

// The non-empty lines of `file`.
std::vector<std::string> lines_of(const std::filesystem::path& file);

// Tests on a copy of ../shared/uea made by uea_python/standin_tree.py (its stand-in model, clips and sets: see
// there), with UEA's Python on PYTHONPATH; skipped where ../shared/uea or Debian's packages for it are missing.
class UeaTreeTest : public ::testing::Test {
 protected:
  void SetUp() override;
  // The stand-in tree in a fresh folder; `crash` names the clip whose answer kills the stand-in script.
  void make_tree(int crash = -1);
  // UEA's own main.py on the tree (`options` after `-m audio_evals.main`), run in the tree, with the tree
  // before the PYTHONPATH of the environment.
  Outcome uea_main(const std::string& options) const;

  TempDir dir_;
  std::string python_path_;
  std::optional<ScopedEnv> python_path_env_, wheelhouse_;
  ScopedEnv host_{"AEVAL_UEA_PYTHON", kDebianPython.c_str()}, no_index_{"PIP_NO_INDEX", "1"},
      no_skip_{"AUDIO_EVALS_SKIP_ENV_SETUP", nullptr};
};

}  // namespace aeval::testing
