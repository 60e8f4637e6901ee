#pragma once
// NLTK 3.8's PorterStemmer (nltk/stem/porter.py) in its three modes; the
// default NLTK_EXTENSIONS is what rouge-score and NLTK METEOR use. Snowball's
// porter/english stemmers are different algorithms. shared/specs/metric-specs.md §10.
#include <string>
#include <string_view>

namespace aeval::text {

enum class PorterMode { nltk_extensions, martin_extensions, original_algorithm };

// PorterStemmer(mode).stem(word): lowercases first; in NLTK mode the
// irregular-forms table is keyed on the word as given ("Skies" → "ski",
// "skies" → "sky").
std::string porter_stem(std::string_view word, PorterMode mode = PorterMode::nltk_extensions);

}  // namespace aeval::text
