#pragma once
// A local stand-in for the Hugging Face Hub (cpp-httplib) that speaks the
// part of its API aeval uses: /api/datasets/R/revision/REV (the commit and
// cardData), /api/datasets/R/tree/REV[/FOLDER]?recursive=true (files with
// their LFS size and SHA-256, paged with a Link header) and
// /datasets/R/resolve/REV/PATH (downloads: a redirect to a signed link on a
// storage host of another name, which serves the bytes with HTTP ranges), and
// the dataset viewer's /parquet?dataset=R (at datasets-server.localhost, the
// host `datasets` derives from the endpoint): the conversion's files and, in
// X-Revision, the commit of main it is made from.
// Like the Hub, it answers an anonymous request for a repository it does not
// have with 401, lists files kept in git by their git blob id and LFS files
// by their SHA-256, and says how long a rate limit lasts in a RateLimit
// header. It can be gated and scripted to fail downloads: 429, 503, a cut
// connection, a corrupted body, an expired link.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace httplib {
class Server;
}

namespace aeval::testing {

struct HubTestBranch {
  std::string commit;                                       // 40 hex digits
  std::map<std::string, std::filesystem::path> files;       // repository path → file served
};

struct HubTestRepo {
  HubTestBranch main;                                       // answers "main" and its commit
  HubTestBranch conversion;                                 // refs/convert/parquet, when it has files
  std::string converted_from;                               // the commit the conversion is of ("": main's)
  bool conversion_pending = false;                          // the viewer is still converting some splits
  std::vector<HubTestBranch> history;                       // earlier commits, answered by their id
  nlohmann::json configs;                                   // cardData.configs (null: none declared)
  std::string token;                                        // set: gated, "Bearer TOKEN" required
  std::string basic;                                        // set: behind HTTP Basic auth, "user:password"
  std::set<std::string> in_git;                             // paths kept in git, not LFS: listed by git blob id
  std::set<std::string> undigested;                        // paths listed with no digest (oid null, no lfs)
};

struct HubTestFaults {
  int throttled = 0;        // the next N downloads answer 429 with RateLimit: "resolvers";r=0;t=1
  int unavailable = 0;      // the next N downloads answer 503
  std::size_t cut_after = 0;  // the next download sends this many bytes, then drops the connection
  int corrupted = 0;        // the next N downloads flip a byte of the file
  int expired = 0;          // the storage host refuses the next N signed links as expired (403)
};

class HubTestServer {
 public:
  explicit HubTestServer(std::map<std::string, HubTestRepo> repos);  // "owner/name" → repository
  ~HubTestServer();

  std::string endpoint() const;  // http://localhost:PORT, for HF_ENDPOINT
  void set_faults(const HubTestFaults& faults);
  // For the next `seconds`, API requests answer 429 with the Hub's RateLimit header (t: seconds left).
  void rate_limit_api(int seconds);
  int api_requests() const { return api_requests_; }
  int downloads() const { return downloads_; }          // answered with file bytes, whole or in part
  int authorized_at_storage() const { return authorized_at_storage_; }  // storage requests that carried a token
  std::vector<std::string> ranges() const;              // Range headers received, in order

 private:
  std::map<std::string, HubTestRepo> repos_;
  std::unique_ptr<httplib::Server> server_, cdn_;
  std::thread thread_, cdn_thread_;
  int port_ = 0, cdn_port_ = 0;
  std::atomic<int> api_requests_{0}, downloads_{0}, authorized_at_storage_{0};
  std::chrono::steady_clock::time_point api_limited_until_;  // guarded by mutex_
  mutable std::mutex mutex_;
  HubTestFaults faults_;
  std::vector<std::string> ranges_;
};

// 40 hex digits derived from `seed`, for test commits.
std::string test_commit(const std::string& seed);

}  // namespace aeval::testing
