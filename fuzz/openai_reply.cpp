// What an OpenAI-compatible server answers (any server: vLLM, a proxy, a
// test double): the body of a 2xx reply read as the chat and transcription
// clients read it, whole or as a stream of server-sent events, a spoken
// answer's audio decoded, and the chat answer's logprobs read as the yes/no
// judges read them.
#include <string>

#include "aeval/error.hpp"
#include "aeval/metrics/yes_no.hpp"
#include "models/openai.hpp"

namespace {

void read_chat(const nlohmann::json& reply) {
  try {
    const auto chat = aeval::models::chat_response(reply);
    if (chat) aeval::metrics::yes_no_probability(chat->logprobs);
  } catch (const aeval::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  // As OpenAiBase::answered: anything but a JSON object is an error there.
  const auto reply = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (!reply.is_discarded() && reply.is_object()) {
    aeval::models::transcription_response(reply);
    read_chat(reply);
  }
  try {
    if (const auto streamed = aeval::models::streamed_reply(body)) read_chat(*streamed);
  } catch (const aeval::Error&) {
  }
  return 0;
}
