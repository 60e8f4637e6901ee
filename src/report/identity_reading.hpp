#pragma once
// What a leaderboard reads from an evaluator's identity in summary.json: the catalog metric it
// computed and the scoring model behind its values. Identities state them as "metric" and as
// "model" or "asr_model"; a class whose identity says them otherwise (error_rate by its unit,
// DNSMOS by being the built-in model) declares how beside its code, so that no reader of
// summaries compares class ids, and summaries stay as runs have always written them.
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

namespace aeval::report {

struct IdentityReading {
  // The catalog metric an identity of the class computed, when the identity names no "metric" ("": none).
  std::function<std::string(const nlohmann::json& identity)> metric = {};
  std::string scorer = {};  // the scoring model behind every value of the class ("": none)
};

// Declares how identities of `class_id` read (a static object beside the class).
struct DeclareIdentityReading {
  DeclareIdentityReading(const std::string& class_id, IdentityReading reading);
};

// The reading declared for `class_id`; null when there is none.
const IdentityReading* identity_reading(const std::string& class_id);

}  // namespace aeval::report
