#pragma once
// Isolated Python environments for process models, as UltraEval-Audio keeps
// one per model: created once under $XDG_CACHE_HOME/aeval/venvs/<fingerprint>
// (python3 -m venv --system-site-packages, then pip install -r requirements),
// where the fingerprint covers the requirements file and the interpreter, a
// file lock keeps concurrent runs from building it twice, and a marker written
// last makes a half-built environment count as absent.
#include <filesystem>

namespace aeval::models {

// The environment's python, building the environment when needed. Throws
// aeval::Error (model) with pip's last lines when installing fails (offline:
// point PIP_FIND_LINKS at a wheelhouse and set PIP_NO_INDEX=1).
std::filesystem::path python_environment(const std::filesystem::path& requirements);

}  // namespace aeval::models
