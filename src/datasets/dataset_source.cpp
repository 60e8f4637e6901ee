#include "datasets/dataset_source.hpp"

#include <fmt/format.h>


#include "aeval/error.hpp"
#include "datasets/archive_extract.hpp"
#include "datasets/dataset.hpp"
#include "util/download.hpp"

namespace aeval::datasets {

namespace arg = registry::arg;
using registry::Args;
using registry::ArgSpec;

namespace fs = std::filesystem;

namespace {

// The URL's last path segment: what the downloaded file is called (and whether it is an archive).
std::string file_name_of(const std::string& url) {
  const std::string path = url.substr(0, url.find_first_of("?#"));
  const std::string name = path.substr(path.find_last_of('/') + 1);
  return name.empty() || name == "." || name == ".." ? "download" : name;
}

fs::path inside(const fs::path& root, const std::string& member, const Args& args) {
  if (member.empty()) return root;
  const fs::path relative = fs::path(member).lexically_normal();
  if (relative.is_absolute() || (!relative.empty() && *relative.begin() == ".."))
    args.fail("member '" + member + "' must be a path inside the archive");
  const fs::path path = root / relative;
  if (!fs::exists(path))
    throw Error(ErrorCategory::data, args.entry().where() + ": member '" + member + "' is not in the archive (" +
                                         "extracted to " + root.string() + ")");
  return path;
}

}  // namespace

std::vector<ArgSpec> source_args(const std::string& what) {
  return {arg::path("path", "", what + ", or an archive holding it (relative to this YAML file)"),
          arg::text("url", "", "where to download it (or an archive holding it) instead of `path`"),
          arg::text("sha256", "", "the SHA-256 of the file at `url` (required with `url`)"),
          arg::text("member", "", "inside an archive: the path of what to read (default: the whole archive)")};
}

fs::path source_cache_dir(const std::string& entry) { return dataset_cache_dir() / entry; }

fs::path downloaded_file(const std::string& entry, const std::string& url, const std::string& sha256) {
  // The digest names a folder: nothing but hexadecimal digits may reach the path.
  if (sha256.size() != 64 || sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
    throw Error(ErrorCategory::config,
                fmt::format("'{}': sha256 must be 64 lower-case hexadecimal digits, not '{}'", entry, sha256));
  return source_cache_dir(entry) / "download" / sha256.substr(0, 16) / file_name_of(url);
}

fs::path audio_dir_arg(const Args& args, const fs::path& beside, std::string& missing) {
  if (args.given("audio_dir")) return args.path("audio_dir");
  if (!args.text("url").empty())
    missing = fmt::format("give the folder of its audio: --set {}.audio_dir=DIR ({})", args.entry().name,
                          args.text("homepage").empty() ? "see its publisher" : args.text("homepage"));
  return beside;
}

fs::path download_pinned(const std::string& entry, const std::string& url, const std::string& sha256,
                         const std::string& kind) {
  const fs::path file = downloaded_file(entry, url, sha256);
  DownloadOptions options;
  options.prefetch_hint = "fetch it where there is network (aeval fetch " + kind + " " + entry + ") and copy " +
                          dataset_cache_dir().string() + " here";
  download_files({{url, file, sha256, std::nullopt}}, options);
  return file;
}

SourceLocation locate_source(const Args& args) {
  const std::string url = args.text("url");
  if (args.given("path") == !url.empty())
    args.fail(fmt::format("give either `path` or `url` (with `sha256`){}",
                          args.given("path") || args.text("homepage").empty()
                              ? ""
                              : fmt::format(": --set {}.path=FILE, the file as published at {}", args.entry().name,
                                            args.text("homepage"))));
  const std::string member = args.text("member");
  SourceLocation source;
  const fs::path cache = source_cache_dir(args.entry().name);
  fs::path file;
  std::string known_sha256;
  if (url.empty()) {
    file = args.path("path").lexically_normal();
    source.description = {{"path", fs::absolute(file).string()}};
  } else {
    known_sha256 = args.text("sha256");
    if (known_sha256.empty()) args.fail("`url` needs the file's `sha256`, so that a download is verified");
    file = download_pinned(args.entry().name, url, known_sha256);
    source.description = {{"url", url}, {"sha256", known_sha256}, {"file", file.string()}};
  }
  if (!is_archive(file)) {
    if (!member.empty()) args.fail("`member` applies only to archives, and " + file.string() + " is not one");
    source.path = file;
    return source;
  }
  if (!fs::is_regular_file(file))
    throw Error(ErrorCategory::data, args.entry().where() + ": no archive " + file.string());
  const fs::path extracted = extract_archive(file, cache / "extracted", known_sha256);
  source.description["extracted"] = extracted.string();
  if (!member.empty()) source.description["member"] = member;
  source.path = inside(extracted, member, args);
  return source;
}

}  // namespace aeval::datasets
