#pragma once
// What the end-to-end tests of judges share: the text a judge was sent, a
// first token's log-probabilities as an OpenAI-compatible server returns them,
// and registry entries pointing the built-in judge names at the test server.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "support/openai_test_server.hpp"
#include "support/temp_dir.hpp"

namespace aeval::testing {

// Every text part of a chat request, joined.
inline std::string all_text(const ReceivedRequest& r) {
  std::string out;
  for (const auto& m : r.body["messages"])
    for (const auto& part : m["content"])
      if (part.value("type", "") == "text") out += part["text"].get<std::string>() + "\n";
  return out;
}

// The base64 audio of a chat request: its first audio part ("" when it has none).
inline std::string sent_audio(const ReceivedRequest& r) {
  for (const auto& m : r.body["messages"])
    for (const auto& part : m["content"])
      if (part.is_object() && part.value("type", "") == "input_audio") return part["input_audio"]["data"];
  return "";
}

inline nlohmann::json first_token(std::vector<std::pair<std::string, double>> candidates) {
  nlohmann::json top = nlohmann::json::array();
  for (const auto& [token, lp] : candidates) top.push_back({{"token", token}, {"logprob", lp}});
  return {{"content", {{{"token", candidates.at(0).first}, {"logprob", candidates.at(0).second}, {"top_logprobs", top}}}}};
}

// Registry entries that point the built-in judge names at the test server.
inline void point_judges_at(const std::filesystem::path& registry, const OpenAiTestServer& server) {
  std::filesystem::create_directories(registry / "models");
  std::string yaml;
  for (const char* name : {"qwen2.5-omni-judge", "qwen2.5-omni-3b-judge", "qwen3-decomposer", "caption-grader"}) {
    const bool audio = std::string(name).find("omni") != std::string::npos;
    yaml += fmt::format("{}:\n  class: openai_chat\n  args:\n    base_url: {}\n    model: {}\n    input_sample_rate: {}\n"
                        "    logprobs: {}\n    top_logprobs: 5\n    max_retries: 0\n    max_concurrency: 4\n",
                        name, server.base_url(), name, audio ? 16000 : 0, audio ? "true" : "false");
  }
  write_bytes(registry / "models" / "judges.yaml", yaml);
}

inline void write_lines(const std::filesystem::path& file, const std::vector<nlohmann::json>& rows) {
  std::ofstream out(file);
  for (const auto& r : rows) out << r.dump() << "\n";
}

}  // namespace aeval::testing
