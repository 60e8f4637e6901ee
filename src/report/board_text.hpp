#pragma once
// The text of a leaderboard's cells and captions, shared by its Markdown and HTML renderings.
#include <cstddef>
#include <string>

#include "aeval/report/leaderboard.hpp"

namespace aeval::report::board_text {

std::string number(double v);         // 4 significant digits
std::string signed_number(double v);  // the same with its sign
std::string escape(const std::string& s);         // for HTML
std::string markdown_cell(const std::string& s);  // '|' escaped
// A column's header: the metric, prefixed by its dataset when the board has several.
std::string column_title(const Leaderboard& b, const LeaderboardColumn& c);
std::string value_text(const LeaderboardRow& r, std::size_t column);  // "–" for none
std::string bitrate_text(const LeaderboardRow& r);
std::string average_text(const LeaderboardRow& r);  // 2 decimals, "*" after one not ranked with the others
std::string datasets_text(const Leaderboard& b);
std::string verdict(const PublishedCheck& c);  // not run, reproduced, DEVIATES
std::string cell_text(const SuiteCell& c);     // a suite's score with its interval
std::string beside_title(const SuiteTable& table);
std::string beside_text(const SuiteTable::Row& r);

extern const char* const kSuiteExplanation;
extern const char* const kBesideExplanation;

}  // namespace aeval::report::board_text
