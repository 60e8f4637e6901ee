#include "uea/uea_environment.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "aeval/error.hpp"
#include "util/file_lock.hpp"
#include "util/sha256.hpp"
#include "util/subprocess.hpp"

namespace aeval::uea {

namespace {

bool env_flag(const char* name) {
  const char* value = std::getenv(name);
  if (!value) return false;
  std::string v = value;
  v.erase(0, v.find_first_not_of(" \t"));
  v.erase(v.find_last_not_of(" \t") + 1);
  for (auto& c : v) c = char(std::tolower(static_cast<unsigned char>(c)));
  return v == "1" || v == "true" || v == "yes" || v == "on";
}

// A string as Python's json.dumps(..., ensure_ascii=False) writes it.
std::string python_json_string(const std::string& s) {
  return nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::filesystem::path under_root(const std::filesystem::path& root, const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();  // UEA drops a trailing slash
  return std::filesystem::path(p).is_absolute() ? std::filesystem::path(p) : root / p;
}

bool on_path(const std::string& program) {
  const auto f = detail::run_to_end({"sh", "-c", "command -v " + shell_quote(program)});
  return WIFEXITED(f.status) && WEXITSTATUS(f.status) == 0;
}

// The installer's reason on one line: its last "error" line, else its last line.
std::string install_reason(const std::string& output) {
  std::istringstream lines(output);
  std::string last, last_error;
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    last = line;
    if (line.rfind("ERROR:", 0) == 0 || line.rfind("error:", 0) == 0 || line.rfind("  × ", 0) == 0) last_error = line;
  }
  return last_error.empty() ? last : last_error;
}

std::string now_text() {
  const std::time_t t = std::time(nullptr);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
  return buffer;
}

}  // namespace

std::string uea_environment_fingerprint(const std::filesystem::path& uea_root, const IsolatedEnvironment& env) {
  std::string requirements;  // UEA reads it relative to its working folder, "" when it cannot
  if (std::ifstream in(under_root(uea_root, env.requirements_path), std::ios::binary); in)
    requirements.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  // json.dumps({...}, sort_keys=True, ensure_ascii=False): keys in order, ", " and ": " between.
  const std::string payload = "{\"pre_command\": " + python_json_string(env.pre_command) +
                              ", \"python\": \"3.10\", \"requirements\": " + python_json_string(requirements) +
                              ", \"requirements_path\": " + python_json_string(env.requirements_path) + "}";
  return sha256_hex(payload).substr(0, 16);
}

std::filesystem::path ensure_uea_environment(const std::filesystem::path& uea_root, const IsolatedEnvironment& env,
                                             const std::string& model_name) {
  const std::filesystem::path dir = std::filesystem::absolute(under_root(uea_root, env.env_path)).lexically_normal();
  if (env_flag("AUDIO_EVALS_SKIP_ENV_SETUP")) return dir;
  const std::string fingerprint = uea_environment_fingerprint(uea_root, env);
  const std::filesystem::path marker = dir / (".audio_evals_ready_" + fingerprint);
  const bool force = env_flag("AUDIO_EVALS_FORCE_ENV_SETUP");
  if (!force && std::filesystem::exists(marker)) return dir;

  std::filesystem::create_directories(dir.parent_path() / ".locks");
  const FileLock lock(dir.parent_path() / ".locks" / (dir.filename().string() + ".lock"));
  if (!force && std::filesystem::exists(marker)) return dir;  // built by whoever held the lock

  // UEA's commands where uv is installed; the standard library's venv and pip where it is not.
  const bool uv = on_path("uv");
  const std::string q = shell_quote(dir.string());
  const std::string create = uv ? fmt::format("uv venv {} --python 3.10 --allow-existing", q)
                                : fmt::format("python3 -m venv {}", q);
  const std::string install =
      uv ? fmt::format("export UV_TORCH_BACKEND=\"${{UV_TORCH_BACKEND:-auto}}\" && {}uv pip install setuptools\\<81 && "
                       "uv pip install --index-strategy unsafe-best-match -r {}",
                       env.pre_command.empty() ? "" : env.pre_command + "&& ", shell_quote(env.requirements_path))
         : fmt::format("{}python -m pip install --no-input 'setuptools<81' && python -m pip install --no-input -r {}",
                       env.pre_command.empty() ? "" : env.pre_command + "&& ", shell_quote(env.requirements_path));
  const std::string script =
      fmt::format("cd {} && {{ [ -f {}/bin/activate ] || {}; }} && source {}/bin/activate && {}",
                  shell_quote(uea_root.string()), q, create, q, install);
  const auto started = std::chrono::steady_clock::now();
  std::fprintf(stderr, "aeval: building UltraEval-Audio's environment %s for %s from %s (once)\n", dir.c_str(),
               model_name.c_str(), env.requirements_path.c_str());
  const detail::Finished f = detail::run_to_end({"bash", "-c", script});
  if (!WIFEXITED(f.status) || WEXITSTATUS(f.status) != 0)
    throw Error(ErrorCategory::model,
                fmt::format("model '{}': building its environment {} from {} failed ({}); without network, point "
                            "{} at a wheelhouse{}, or build it yourself and set AUDIO_EVALS_SKIP_ENV_SETUP=1",
                            model_name, dir.string(), env.requirements_path, install_reason(f.out + f.err),
                            uv ? "UV_FIND_LINKS" : "PIP_FIND_LINKS", uv ? " and set UV_OFFLINE=1 (or UV_INDEX_URL at an index)"
                                                                       : " and set PIP_NO_INDEX=1 (or PIP_INDEX_URL at an index)"));
  // The marker UEA writes, written last and atomically: a build killed halfway is redone.
  const nlohmann::json content = {{"host", []{ char h[256] = {}; gethostname(h, sizeof h - 1); return std::string(h); }()},
                                  {"pid", getpid()}, {"time", now_text()},
                                  {"requirements_path", env.requirements_path}, {"pre_command", env.pre_command}};
  const std::filesystem::path temporary = marker.string() + "." + std::to_string(getpid()) + ".tmp";
  std::ofstream(temporary) << content.dump();
  std::filesystem::rename(temporary, marker);
  std::fprintf(stderr, "aeval: environment %s ready in %.1f s\n", dir.c_str(),
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return dir;
}

}  // namespace aeval::uea
