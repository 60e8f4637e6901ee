// Traditional → simplified conversion through OpenCC's SimpleConverter
// (Debian libopencc1.1 1.1.6), standing in for zhconv 1.4 convert(s, "zh-cn")
// in UltraEval-Audio's Cantonese WER. Plumbing vectors (the `opencc` tool of
// the same package): tests/data/uea_text/opencc_cli.jsonl.
#include "aeval/text/chinese_script.hpp"

#include <opencc/SimpleConverter.hpp>

#include <stdexcept>

#include "aeval/error.hpp"
#include "aeval/text/unicode.hpp"
#include "aeval/text/utf8.hpp"

namespace aeval::text {

struct ChineseScriptConverter::Impl {
  std::string config;
  std::unique_ptr<opencc::SimpleConverter> converter;
};

ChineseScriptConverter::ChineseScriptConverter(std::string config) : impl_(std::make_unique<Impl>()) {
  impl_->config = std::move(config);
  try {
    impl_->converter = std::make_unique<opencc::SimpleConverter>(impl_->config);
  } catch (const std::exception& e) {
    throw Error(ErrorCategory::config, "OpenCC configuration '" + impl_->config + "': " + e.what());
  }
}

ChineseScriptConverter::~ChineseScriptConverter() = default;
ChineseScriptConverter::ChineseScriptConverter(ChineseScriptConverter&&) noexcept = default;
ChineseScriptConverter& ChineseScriptConverter::operator=(ChineseScriptConverter&&) noexcept = default;

std::string ChineseScriptConverter::operator()(std::string_view input) const {
  // OpenCC reads C strings and rejects broken UTF-8: bytes that are not UTF-8
  // become U+FFFD (a Python str has none), and NULs are kept by converting the
  // pieces between them.
  const std::string text = first_invalid_utf8(input) ? to_utf8(to_u32(input)) : std::string(input);
  std::string out;
  std::size_t from = 0;
  while (true) {
    const std::size_t nul = text.find('\0', from);
    const std::string piece = text.substr(from, nul == std::string::npos ? std::string::npos : nul - from);
    try {
      if (!piece.empty()) out += impl_->converter->Convert(piece);
    } catch (const std::exception& e) {
      throw Error(ErrorCategory::data, "OpenCC '" + impl_->config + "' failed: " + e.what());
    }
    if (nul == std::string::npos) break;
    out += '\0';
    from = nul + 1;
  }
  return out;
}

const std::string& ChineseScriptConverter::config() const { return impl_->config; }

}  // namespace aeval::text
