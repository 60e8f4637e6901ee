#pragma once
// Traditional → simplified Chinese through OpenCC (Debian libopencc 1.1.6):
// aeval's stand-in for zhconv.convert(text, "zh-cn"), which UltraEval-Audio
// applies to Cantonese ("yue") references and hypotheses before scoring.
//
// NOT identical to zhconv. zhconv converts by maximal forward matching over
// MediaWiki's ZhConversion tables (zh2Hans, then the zh2CN regional words:
// 軟體→软件, 滑鼠→鼠标, 計程車→出租车, 「」→“”, …); OpenCC segments with its
// own phrase dictionaries. "t2s.json" (the default) converts characters and
// OpenCC's traditional phrases without regional vocabulary; "tw2sp.json" adds
// Taiwan→mainland words but also rewrites some already simplified text
// (什么→什幺); "hk2s.json" reads Hong Kong variant characters. Documented
// differences: tests/data/uea_text/README.md.
#include <memory>
#include <string>
#include <string_view>

namespace aeval::text {

class ChineseScriptConverter {
 public:
  // `config` is an OpenCC configuration: a file name found in OpenCC's data
  // folder (/usr/share/opencc) or a path. Throws aeval::Error (config) when
  // OpenCC cannot load it.
  explicit ChineseScriptConverter(std::string config = "t2s.json");
  ~ChineseScriptConverter();
  ChineseScriptConverter(ChineseScriptConverter&&) noexcept;
  ChineseScriptConverter& operator=(ChineseScriptConverter&&) noexcept;

  // Thread-safe (OpenCC's converter is immutable once loaded).
  std::string operator()(std::string_view text) const;

  const std::string& config() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace aeval::text
