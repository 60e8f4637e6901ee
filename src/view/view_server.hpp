#pragma once
// aeval view's HTTP server (cpp-httplib): the page app at /, and the JSON API
// over a results folder, which it reads and never writes.
//   GET /api/runs                                   every run (ResultsFolder::runs)
//   GET /api/boards                                 the leaderboards
//   GET /api/runs/<id>/samples?offset&limit&sort&order&failed&q&field&value
//   GET /api/runs/<id>/samples/<position>           one sample (view_api.hpp)
//   GET /api/runs/<id>/samples/<position>/audio/<role>   its audio as WAV, with HTTP ranges
//   GET /api/compare?a=<id>&b=<id>&metric&order&offset&limit
#include <functional>
#include <string>

#include "view/results_folder.hpp"

namespace aeval::view {

struct ServerOptions {
  std::string host = "127.0.0.1";
  int port = 8470;  // 0: any free port
};

// Serves until the process is stopped. `ready` is called with the address once it listens.
// Throws aeval::Error (config) when the address cannot be bound.
void serve(const ResultsFolder& results, const ServerOptions& options,
           const std::function<void(const std::string& url)>& ready);

}  // namespace aeval::view
