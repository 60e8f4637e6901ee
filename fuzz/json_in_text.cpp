// The JSON a language model's answer contains (judges, post-processing):
// free text from a remote model, so anything at all.
#include <cstdlib>
#include <string>

#include "aeval/error.hpp"
#include "aeval/text/json_in_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto object = aeval::text::find_json(text, '{');
    const auto list = aeval::text::find_json(text, '[');
    if ((object && !object->is_object()) || (list && !list->is_array())) std::abort();
    // Printed, as json_field prints a field that is not text: a value nested too deep would overflow here.
    for (const auto& found : {object, list})
      if (found) found->dump();
  } catch (const aeval::Error&) {  // JSON nested too deep
  }
  return 0;
}
