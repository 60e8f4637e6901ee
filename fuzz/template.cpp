// Prompt templates (the Jinja subset of docs/templates.md): parsed from the
// registry, rendered against each sample's fields.
#include <nlohmann/json.hpp>

#include "aeval/error.hpp"
#include "prompts/template.hpp"

namespace {

// The kinds of value a sample's context holds: text (also non-ASCII and
// empty), numbers, booleans, null, lists and nested maps.
const nlohmann::json& context() {
  static const nlohmann::json kContext = nlohmann::json::parse(R"({
    "id": "s1", "text": "Hello, World", "audio": "/data/clip.wav", "empty": "", "unicode": "naïve café — 日本語",
    "choices": ["yes", "no", "maybe"], "answer": 2, "score": 0.5, "flag": true, "nothing": null,
    "items": [{"id": 0, "question": "Is it loud?"}, {"id": 1, "question": "Is it a dog?"}],
    "fields": {"speaker": "ann", "tags": ["a", "b"], "nested": {"k": [1, 2.5, "x"]}}
  })");
  return kContext;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  try {
    // The first byte picks the dialect: aeval's, or jinja2's as UltraEval-Audio's prompts use it.
    if (size == 0) return 0;
    const auto dialect = data[0] & 1 ? aeval::pipeline::TemplateDialect::jinja2 : aeval::pipeline::TemplateDialect::aeval;
    const aeval::pipeline::Template tmpl(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1), "fuzz",
                                         dialect);
    tmpl.render(context());
  } catch (const aeval::Error&) {
  }
  return 0;
}
