#pragma once
// The reference implementations Debian ships (NLTK 3.8, SciPy 1.10, scikit-learn 1.2), run through
// tests/differential/reference_tools.py: one request kind, its cases in, Python's answers out.
#include <nlohmann/json.hpp>
#include <string>

namespace aeval::testing {

// Whether python3-nltk, -scipy and -sklearn import (tests AEVAL_REQUIRE it).
bool python_references_available();

// Python's answer to each case of `kind` (a JSON array, in the cases' order).
nlohmann::json python_references(const std::string& kind, const nlohmann::json& cases);

}  // namespace aeval::testing
