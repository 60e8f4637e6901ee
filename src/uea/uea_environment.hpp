#pragma once
// The virtual environment of an UltraEval-Audio @isolated model class, built as UEA's
// env_setup.ensure_env builds it and recognised by UEA too: the same marker file
// (.audio_evals_ready_<fingerprint>, the fingerprint computed as UEA computes it), the same
// cross-process lock (<env's folder>/.locks/<env name>.lock, flock), the same install commands
// with `uv` where it is installed, and `python3 -m venv` + pip where it is not. So parallel runs,
// aeval's and UEA's own main.py, build one environment once.
#include <filesystem>
#include <string>

namespace aeval::uea {

struct IsolatedEnvironment {
  std::string env_path;           // as the entry writes it: relative to the UEA root, or absolute
  std::string requirements_path;  // likewise
  std::string pre_command;        // the @isolated decorator's, a shell command run before installing
};

// UEA's fingerprint() of (requirements_path as written, the file's content, pre_command, python "3.10").
std::string uea_environment_fingerprint(const std::filesystem::path& uea_root, const IsolatedEnvironment& env);

// Builds the environment unless its marker is there (or $AUDIO_EVALS_SKIP_ENV_SETUP is set, as in UEA);
// returns its folder. Throws aeval::Error (model) in one line naming what failed and how to provide it
// offline (a wheelhouse, an index URL, or building it by hand).
std::filesystem::path ensure_uea_environment(const std::filesystem::path& uea_root, const IsolatedEnvironment& env,
                                             const std::string& model_name);

}  // namespace aeval::uea
