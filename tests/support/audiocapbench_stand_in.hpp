#pragma once
// A stand-in for AudioCapBench's audiocapbench/metrics.py: the shape of its judge function, evaluate_with_llm_judge
// (what the audiocapbench_judge prompt class reads), in the team's words; the release's own file is not in the
// repository. Served by a test's FileServer, with the prompt entry that reads it.
#include <fmt/format.h>

#include <string>

#include "util/sha256.hpp"

namespace aeval::testing {

inline constexpr const char* kAudioCapBenchMetricsStandIn = R"PY(# A stand-in for AudioCapBench's metrics.py: its judge function's shape, other words.


def evaluate_with_llm_judge(prediction, references, category, llm_client, judge_model="judge", transcript=""):
    refs_text = "\n".join(f"  * {r}" for r in references)

    category_guidance = {
        "music": (
            "Music: listen for the style "
            "and the instruments."
        ),
        "speech": (
            "Speech: who talks, "
            "and how they sound."
        ),
    }.get(category, (
        "Sounds: what makes them "
        "and where they happen."
    ))

    if category == "speech" and transcript:
        category_guidance += f'\nThey say: "{transcript}"'

    prompt = f"""Grade the caption.

{category_guidance}

Captions people wrote:
{refs_text}

The caption:
  "{prediction}"

Reply with {{"accuracy": <0-10>}} only."""

    try:
        response = llm_client.chat.completions.create(
            model=judge_model,
            messages=[{"role": "user", "content": prompt}],
            temperature=0.0,
        )
        return response
    except Exception as e:
        print(f"judge error: {e}")
        return None


def another_function():
    prompt = f"""not this one"""
    return prompt
)PY";

// A prompt entry NAME of the audiocapbench_judge class reading `metrics` (the stand-in unless given) from
// `release_url`, the folder the test serves audiocapbench/metrics.py under.
inline std::string audiocapbench_judge_prompt_entry(const std::string& name, const std::string& release_url,
                                                    const std::string& metrics = kAudioCapBenchMetricsStandIn) {
  return fmt::format("{}:\n  class: audiocapbench_judge\n  args:\n    release: {}\n    sha256: {}\n", name, release_url,
                     sha256_hex(metrics));
}

}  // namespace aeval::testing
