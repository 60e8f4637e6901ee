#include "support/hub_test_server.hpp"

#include <httplib.h>

#include <algorithm>
#include <chrono>
#include <tuple>

#include "support/temp_dir.hpp"
#include "util/base64.hpp"
#include "util/sha256.hpp"

namespace aeval::testing {

namespace {

constexpr const char* kConversion = "refs/convert/parquet";

}  // namespace

std::string test_commit(const std::string& seed) { return sha256_hex(seed).substr(0, 40); }

HubTestServer::HubTestServer(std::map<std::string, HubTestRepo> repos)
    : repos_(std::move(repos)), server_(std::make_unique<httplib::Server>()), cdn_(std::make_unique<httplib::Server>()) {
  // The branch a revision names, or null; a gated repository without the token answers 401.
  const auto branch = [this](const httplib::Request& req, httplib::Response& res, const std::string& repo,
                             const std::string& revision) -> const HubTestBranch* {
    const auto it = repos_.find(repo);
    if (it == repos_.end()) {  // the Hub does not tell an anonymous client what is private
      res.status = req.has_header("Authorization") ? 404 : 401;
      return nullptr;
    }
    const std::string authorization = !it->second.token.empty()   ? "Bearer " + it->second.token
                                      : !it->second.basic.empty() ? "Basic " + util::base64(it->second.basic)
                                                                  : "";
    if (!authorization.empty() && req.get_header_value("Authorization") != authorization) {
      res.status = 401;
      res.set_content(R"({"error":"Access to dataset is restricted. You must be authenticated."})", "application/json");
      return nullptr;
    }
    if (revision == "main" || revision == it->second.main.commit) return &it->second.main;
    if (!it->second.conversion.commit.empty() && (revision == kConversion || revision == it->second.conversion.commit))
      return &it->second.conversion;
    for (const auto& earlier : it->second.history)
      if (revision == earlier.commit) return &earlier;
    res.status = 404;
    return nullptr;
  };

  // The Hub's API answers a client over its quota with 429 and how long its window has left.
  const auto limited = [this](httplib::Response& res) {
    std::lock_guard lock(mutex_);
    const auto left = std::chrono::ceil<std::chrono::seconds>(api_limited_until_ - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    res.status = 429;
    res.set_header("RateLimit", "\"api\";r=0;t=" + std::to_string(left.count()));
    res.set_header("RateLimit-Policy", "\"fixed window\";\"api\";q=1000;w=300");
    return true;
  };

  server_->Get(R"(/api/datasets/([^/]+/[^/]+)/revision/(.+))", [=, this](const httplib::Request& req, httplib::Response& res) {
    ++api_requests_;
    if (limited(res)) return;
    const HubTestBranch* b = branch(req, res, req.matches[1], req.matches[2]);
    if (!b) return;
    nlohmann::json info = {{"id", req.matches[1].str()}, {"sha", b->commit}, {"siblings", nlohmann::json::array()}};
    const auto& repo = repos_.at(req.matches[1]);
    if (!repo.configs.is_null()) info["cardData"] = {{"configs", repo.configs}};
    res.set_content(info.dump(), "application/json");
  });

  // Listings come two files a page, so that paging is always exercised.
  server_->Get(R"(/api/datasets/([^/]+/[^/]+)/tree/(refs/convert/parquet|[^/]+)(/.*)?)",
               [=, this](const httplib::Request& req, httplib::Response& res) {
                 ++api_requests_;
                 if (limited(res)) return;
                 const HubTestBranch* b = branch(req, res, req.matches[1], req.matches[2]);
                 if (!b) return;
                 std::string folder = req.matches[3].str();
                 if (!folder.empty()) folder = folder.substr(1) + "/";
                 const std::size_t page = req.has_param("cursor") ? std::stoul(req.get_param_value("cursor")) : 0;
                 nlohmann::json entries = nlohmann::json::array();
                 std::size_t index = 0;
                 bool more = false;
                 for (const auto& [path, file] : b->files) {
                   if (path.rfind(folder, 0) != 0) continue;
                   if (index >= page * 2 + 2) {
                     more = true;
                     break;
                   }
                   if (index++ < page * 2) continue;
                   const auto size = std::filesystem::file_size(file);
                   if (repos_.at(req.matches[1]).in_git.count(path)) {
                     entries.push_back({{"type", "file"}, {"path", path}, {"size", size}, {"oid", git_blob_id_of_file(file)}});
                     continue;
                   }
                   if (repos_.at(req.matches[1]).undigested.count(path)) {
                     entries.push_back({{"type", "file"}, {"path", path}, {"size", size}, {"oid", nullptr}});
                     continue;
                   }
                   entries.push_back({{"type", "file"}, {"path", path}, {"size", size},
                                      {"oid", sha256_hex(path).substr(0, 40)},
                                      {"lfs", {{"oid", sha256_of_file(file)}, {"size", size}, {"pointerSize", 130}}}});
                 }
                 if (index == 0 && !folder.empty()) {
                   res.status = 404;
                   return;
                 }
                 if (more)
                   res.set_header("Link", "<http://127.0.0.1:" + std::to_string(port_) + req.path +
                                              "?recursive=true&cursor=" + std::to_string(page + 1) + ">; rel=\"next\"");
                 res.set_content(entries.dump(), "application/json");
               });

  // The dataset viewer: the conversion's files by config, split and (for a split in numbered
  // SPLIT-partN folders) part; a split cut short lies in a folder partial-SPLIT.
  server_->Get("/parquet", [=, this](const httplib::Request& req, httplib::Response& res) {
    ++api_requests_;
    const std::string name = req.get_param_value("dataset");
    const auto it = repos_.find(name);
    if (it == repos_.end() || it->second.conversion.commit.empty() || !branch(req, res, name, kConversion)) {
      if (res.status != 401) res.status = 404;
      return;
    }
    const HubTestRepo& repo = it->second;
    struct Listed {
      std::string config, split;
      long part;
      std::string path;
    };
    std::vector<Listed> listed;
    bool partial = false;
    for (const auto& [path, file] : repo.conversion.files) {
      const auto first = path.find('/'), second = path.find('/', first + 1);
      std::string split = path.substr(first + 1, second - first - 1);
      long part = 0;
      if (split.rfind("partial-", 0) == 0) {
        partial = true;
        split = split.substr(8);
      } else if (const auto dash = split.rfind("-part"); dash != std::string::npos) {
        part = std::stol(split.substr(dash + 5));
        split = split.substr(0, dash);
      }
      listed.push_back({path.substr(0, first), split, part, path});
    }
    std::sort(listed.begin(), listed.end(), [](const Listed& a, const Listed& b) {
      return std::tie(a.config, a.split, a.part, a.path) < std::tie(b.config, b.split, b.part, b.path);
    });
    nlohmann::json files = nlohmann::json::array();
    for (const auto& f : listed)
      files.push_back({{"dataset", name}, {"config", f.config}, {"split", f.split},
                       {"url", endpoint() + "/datasets/" + name + "/resolve/refs%2Fconvert%2Fparquet/" + f.path},
                       {"filename", f.path.substr(f.path.rfind('/') + 1)},
                       {"size", std::filesystem::file_size(repo.conversion.files.at(f.path))}});
    nlohmann::json pending = nlohmann::json::array();
    if (repo.conversion_pending) pending.push_back({{"kind", "config-parquet"}, {"dataset", name}});
    res.set_header("X-Revision", repo.converted_from.empty() ? repo.main.commit : repo.converted_from);
    res.set_content(nlohmann::json{{"parquet_files", files}, {"pending", pending}, {"failed", nlohmann::json::array()},
                                   {"partial", partial}}
                        .dump(),
                    "application/json");
  });

  // Downloads: /resolve answers with a redirect to a signed link on the storage host (another host
  // name, as the Hub's CDN is), which serves the bytes; throttling happens at the Hub, cuts,
  // corruption and expired links at the storage host.
  server_->Get(R"(/datasets/([^/]+/[^/]+)/resolve/(refs/convert/parquet|[^/]+)/(.+))",
               [=, this](const httplib::Request& req, httplib::Response& res) {
                 const HubTestBranch* b = branch(req, res, req.matches[1], req.matches[2]);
                 if (!b) return;
                 if (!b->files.count(req.matches[3])) {
                   res.status = 404;
                   return;
                 }
                 {
                   std::lock_guard lock(mutex_);
                   if (faults_.throttled > 0) {
                     --faults_.throttled;
                     res.status = 429;
                     res.set_header("RateLimit", "\"resolvers\";r=0;t=1");
                     return;
                   }
                 }
                 res.status = 302;
                 res.set_header("Location", "http://localhost:" + std::to_string(cdn_port_) + "/cdn/" + req.matches[1].str() +
                                                "/" + b->commit + "/" + req.matches[3].str() + "?Expires=4102444800");
               });
  cdn_->Get(R"(/cdn/([^/]+/[^/]+)/([0-9a-f]{40})/(.+))", [=, this](const httplib::Request& req, httplib::Response& res) {
    const HubTestRepo& repo = repos_.at(req.matches[1]);
    const HubTestBranch* b = repo.main.commit == req.matches[2] ? &repo.main : &repo.conversion;
    for (const auto& earlier : repo.history)
      if (earlier.commit == req.matches[2]) b = &earlier;
    const auto file = b->files.find(req.matches[3]);
    if (file == b->files.end()) {
      res.status = 404;
      return;
    }
    std::string bytes = read_bytes(file->second);
    HubTestFaults faults;
    {
      std::lock_guard lock(mutex_);
      if (req.has_header("Authorization")) ++authorized_at_storage_;
      if (req.has_header("Range")) ranges_.push_back(req.get_header_value("Range"));
      if (faults_.expired > 0) {
        --faults_.expired;
        res.status = 403;
        res.set_content("<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>", "application/xml");
        return;
      }
      if (faults_.unavailable > 0) {
        --faults_.unavailable;
        res.status = 503;
        return;
      }
      faults = faults_;
      faults_.cut_after = 0;
      if (faults_.corrupted > 0) --faults_.corrupted;
    }
    ++downloads_;
    if (faults.corrupted > 0) bytes[bytes.size() / 2] ^= 0x5A;
    if (faults.cut_after > 0) {
      res.set_content_provider(bytes.size(), "application/octet-stream",
                               [bytes, cut = faults.cut_after](std::size_t, std::size_t, httplib::DataSink& sink) {
                                 sink.write(bytes.data(), std::min(cut, bytes.size()));
                                 return false;  // drop the connection mid-body
                               });
      return;
    }
    res.set_content(bytes, "application/octet-stream");  // httplib answers Range requests with 206
  });
  cdn_port_ = cdn_->bind_to_any_port("127.0.0.1");
  cdn_thread_ = std::thread([this] { cdn_->listen_after_bind(); });
  while (!cdn_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  port_ = server_->bind_to_any_port("127.0.0.1");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
  while (!server_->is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

HubTestServer::~HubTestServer() {
  server_->stop();
  thread_.join();
  cdn_->stop();
  cdn_thread_.join();
}

std::string HubTestServer::endpoint() const { return "http://localhost:" + std::to_string(port_); }

void HubTestServer::set_faults(const HubTestFaults& faults) {
  std::lock_guard lock(mutex_);
  faults_ = faults;
}

void HubTestServer::rate_limit_api(int seconds) {
  std::lock_guard lock(mutex_);
  api_limited_until_ = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
}

std::vector<std::string> HubTestServer::ranges() const {
  std::lock_guard lock(mutex_);
  return ranges_;
}

}  // namespace aeval::testing
