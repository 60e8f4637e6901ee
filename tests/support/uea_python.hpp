#pragma once
// UltraEval-Audio's own Python on this machine (tests/support/uea_python/): what its main.py and aeval's bridge
// to UEA's classes need on PYTHONPATH, with Debian's interpreter.
#include <filesystem>
#include <string>

namespace aeval::testing {

inline const std::string kDebianPython = "/usr/bin/python3";

// The PYTHONPATH under which UEA's main.py imports here, once the dependencies Debian lacks are built
// (../shared/uea-python; kept in the temporary folder between tests); empty when that fails.
std::string uea_python_path();

// Writes the pycocotools/pycocoevalcap stand-ins (uea_python/coco_standin.py) into `folder`: put it first on
// PYTHONPATH. Returns false when the script fails.
bool write_coco_standins(const std::filesystem::path& folder);

}  // namespace aeval::testing
