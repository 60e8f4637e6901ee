// Python values read from a model's answer (UltraEval-Audio's ContentExtract and JsonExtract:
// json.loads, then ast.literal_eval) and printed back as Python prints them.
#include <string_view>

#include "aeval/text/python_values.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const auto& value : {aeval::text::python_json_loads(text), aeval::text::python_literal_eval(text)})
    if (value) {
      aeval::text::python_repr(*value);
      aeval::text::python_str(*value);
    }
  return 0;
}
