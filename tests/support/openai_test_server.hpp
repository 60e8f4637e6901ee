#pragma once
// A local OpenAI-compatible server (cpp-httplib) for the remote-model tests,
// scriptable per request: the answer text, logprobs, spoken answers (whole,
// or as server-sent events when the request asks to stream), speech, latency,
// status codes, headers, garbage bodies and connections dropped mid-body.
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace httplib {
class Server;
}

namespace aeval::testing {

struct ReceivedRequest {
  std::string path;
  std::string authorization;
  nlohmann::json body;                          // the JSON body, or the multipart text fields
  std::map<std::string, std::string> files;     // multipart file parts: name → bytes
};

struct ScriptedReply {
  int status = 200;
  std::string body;                             // empty: a chat/transcription answer built from `text`
  std::string text = "ok";
  nlohmann::json logprobs;                      // put into choices[0].logprobs when not null
  double delay_seconds = 0;
  std::map<std::string, std::string> headers;
  bool truncate = false;                        // announce a long body, send a few bytes, drop the connection
  double event_gap_seconds = 0;                 // a streamed answer: this pause before each event after the first
  // Audio bytes: a chat answer's spoken answer (message.audio: base64 data, `text` as its transcript, no
  // content), or the body of an /audio/speech answer.
  std::string audio;
};

class OpenAiTestServer {
 public:
  // `script` decides each reply from the request and its 0-based arrival index.
  using Script = std::function<ScriptedReply(const ReceivedRequest&, int index)>;
  explicit OpenAiTestServer(Script script);
  ~OpenAiTestServer();

  std::string base_url() const;  // http://127.0.0.1:PORT/v1
  int requests() const { return count_; }
  int most_in_flight() const { return most_in_flight_; }  // the most requests handled at once
  std::vector<ReceivedRequest> received() const;

 private:
  Script script_;
  std::unique_ptr<httplib::Server> server_;
  std::thread thread_;
  int port_ = 0;
  std::atomic<int> count_{0};
  std::atomic<int> in_flight_{0}, most_in_flight_{0};
  mutable std::mutex mutex_;
  std::vector<ReceivedRequest> received_;
};

}  // namespace aeval::testing
