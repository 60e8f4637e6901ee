// What a process model writes on its stdout (docs/process-protocol.md): any
// program's output, one NDJSON line at a time. Each line of the input is
// one line the reader thread interprets.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>

#include "models/process_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  for (std::size_t at = 0; at < input.size();) {
    const std::size_t end = std::min(input.find('\n', at), input.size());
    using Type = aeval::models::ProcessReply::Type;
    const auto reply = aeval::models::read_process_reply(std::string(input.substr(at, end - at)));
    // A reply answers with text or audio, or says why not: never neither.
    const bool answered = reply.text || reply.audio;
    if ((reply.type == Type::response || reply.type == Type::error) && answered == !reply.error.empty()) std::abort();
    reply.message.dump();  // as the run's log writes it: a value nested too deep overflows here
    at = end + 1;
  }
  return 0;
}
