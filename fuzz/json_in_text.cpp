// The JSON a language model's answer contains (judges, post-processing):
// free text from a remote model, so anything at all.
#include <cstdlib>
#include <string>

#include "aeval/text/json_in_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (const auto object = aeval::text::find_json(text, '{'); object && !object->is_object()) std::abort();
  if (const auto list = aeval::text::find_json(text, '['); list && !list->is_array()) std::abort();
  return 0;
}
