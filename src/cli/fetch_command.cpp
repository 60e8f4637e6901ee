#include <cstdio>

#include "aeval/text/spelling_table.hpp"
#include "cli/commands.hpp"
#include "util/download.hpp"

namespace aeval::cli {

Action add_fetch_command(CLI::App& app) {
  auto what = std::make_shared<std::string>();
  auto url = std::make_shared<std::string>(text::kWhisperSpellingUrl);
  CLI::App* fetch = app.add_subcommand("fetch", "Download data aeval does not ship into its cache");
  fetch->footer(
      "The download is verified against its SHA-256 before it enters the cache.\n"
      "  whisper-spelling   whisper's British->American spelling table, used by whisper-english");
  fetch->add_option("what", *what, "What to fetch")->required()->check(CLI::IsMember({"whisper-spelling"}));
  fetch->add_option("--url", *url, "Download from this address instead (a mirror)")->capture_default_str();
  return [url]() {
    const auto destination = text::default_spelling_table_path();
    download_verified(*url, destination, text::kWhisperSpellingSha256);
    std::printf("fetched %s\n", destination.string().c_str());
    return 0;
  };
}

}  // namespace aeval::cli
