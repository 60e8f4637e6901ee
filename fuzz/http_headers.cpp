// The waits servers ask for: Retry-After and the Hub's RateLimit header, read
// by the Hub client, the download cache and the model clients. A server's
// number is untrusted: whatever it says, the wait is between 0 and a day.
#include <cstdlib>
#include <string>

#include "util/download.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string value(reinterpret_cast<const char*>(data), size);
  for (const auto seconds : {aeval::retry_after_seconds(value), aeval::rate_limit_reset_seconds(value)})
    if (seconds && (*seconds < 0 || *seconds > 86400)) std::abort();
  return 0;
}
