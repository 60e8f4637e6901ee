#pragma once
// A model that is a separate process in any language, started once and kept
// loaded, spoken to in NDJSON over its stdin/stdout (docs/process-protocol.md):
// a ready handshake, request ids, several requests in flight, structured
// error replies, audio passed as WAV files aeval writes and deletes (and
// audio answered the same way: codecs, TTS). If the
// process dies, the requests in flight fail with its exit status and last
// stderr lines and the next request restarts it (bounded).
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "aeval/models/model.hpp"

namespace aeval::models {

struct ProcessModelConfig {
  std::string name;                   // for messages and the run log
  std::vector<std::string> command;   // argv; command[0] is looked up in PATH
  std::filesystem::path working_dir;  // empty: aeval's own
  int input_sample_rate = 16000;      // 0: the process gets no audio
  int max_concurrency = 1;
  double timeout_seconds = 600;       // ready handshake and each request
  int max_restarts = 3;
  double bitrate_kbps = 0;            // codecs: shown in leaderboards (0: not a codec)
  bool start_at_once = false;         // start (and wait for ready) when made, so a model that cannot load
                                      // stops the run before any sample rather than failing each one
};

// One line a process model wrote on its stdout, as the protocol reads it.
struct ProcessReply {
  enum class Type { ready, response, error, other } type = Type::other;
  nlohmann::json message;                  // the parsed line (discarded when it is not JSON), short of
                                           // members nested too deep (util/untrusted_json.hpp)
  std::string id;                          // the request it answers ("" if none)
  std::optional<std::string> text, audio;  // what a response answers
  std::optional<std::string> embedding;    // the .npy file a response names
  nlohmann::json scores;                   // {"name": number, ...}; null when none
  std::string error;                       // why a response or error answers nothing usable
};
ProcessReply read_process_reply(const std::string& line);

// Throws aeval::Error (config) for an empty command. The process starts on
// the first request.
std::unique_ptr<Model> make_process_model(const ProcessModelConfig& config);

}  // namespace aeval::models
