#include "models/dnsmos_models.hpp"

#include <fmt/format.h>

#include <cstdlib>

#include "aeval/error.hpp"
#include "dnsmos/onnx_weights.hpp"
#include "util/download.hpp"
#include "util/sha256.hpp"

namespace aeval::models {

namespace {

// The commit of microsoft/DNS-Challenge whose files the golden vectors were made with.
constexpr const char* kCommit = "591184a9fcb2cbdec02520fed81a32bbbf9d73ff";

const dnsmos::OfficialModel* const kModels[] = {&dnsmos::kP835Official, &dnsmos::kP835PersonalizedOfficial,
                                                &dnsmos::kP808Official};

std::string url_of(const dnsmos::OfficialModel& m) {
  return fmt::format("https://github.com/microsoft/DNS-Challenge/raw/{}/{}", kCommit, m.upstream_path);
}

}  // namespace

std::filesystem::path dnsmos_cache_dir() { return cache_dir() / "models" / "dnsmos"; }

std::filesystem::path dnsmos_models_dir(const std::filesystem::path& given) {
  const char* variable = std::getenv("DNSMOS_MODELS");
  const bool from_variable = given.empty() && variable && *variable;
  const std::filesystem::path dir = !given.empty() ? given : from_variable ? variable : dnsmos_cache_dir();
  const std::string origin = !given.empty() ? "the folder given" : from_variable ? "$DNSMOS_MODELS" : "the cache";
  for (const auto* m : kModels)
    if (!std::filesystem::is_regular_file(dir / m->file_name))
      throw Error(ErrorCategory::model,
                  fmt::format("DNSMOS: no {} in {} ({}); name a folder of Microsoft's official files with --models "
                              "(aeval score dnsmos), models_dir (the dnsmos evaluator) or $DNSMOS_MODELS, or run "
                              "`aeval fetch model dnsmos` to download them into {} (the official file is {}, "
                              "sha256 {})",
                              m->file_name, dir.string(), origin, dnsmos_cache_dir().string(), url_of(*m), m->sha256));
  return dir;
}

std::filesystem::path fetch_dnsmos_models() {
  std::vector<RemoteFile> files;
  for (const auto* m : kModels) files.push_back({url_of(*m), dnsmos_cache_dir() / m->file_name, m->sha256, std::nullopt});
  DownloadOptions options;
  options.prefetch_hint = "fetch them where there is network and copy " + dnsmos_cache_dir().string() + " here";
  download_files(files, options);
  return dnsmos_cache_dir();
}

}  // namespace aeval::models
