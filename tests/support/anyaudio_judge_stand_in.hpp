#pragma once
// Stand-ins for AnyAudio-Judge's anyaudio_judge/prompts.py and decompose.py: the shapes the anyaudio_judge prompt
// class reads (the module's prompt constants, the user-text builders, call_text's /no_think marker), in the team's
// words; the release's own files are not in the repository. Served by a test's FileServer under /release/, as
// AnyAudioJudgeStandIn does for a test's registry.
#include <fmt/format.h>

#include <filesystem>
#include <map>
#include <string>

#include "support/file_server.hpp"
#include "support/temp_dir.hpp"
#include "util/sha256.hpp"

namespace aeval::testing {

inline constexpr const char* kAnyAudioJudgePromptsStandIn = R"PY("""A stand-in of AnyAudio-Judge's prompts.py: its shape, other words."""

DECOMPOSE_PROMPTS = {
    "speech": {
        "max_tokens": 100,
        "user_prefix": "Speech to split:\n",
        "system_prompt": """Split a "speech" description
into questions.

Reply with {"items": []} only.""",
    },

    "mix": {
        "max_tokens": 200,
        "user_prefix": "混合：\n",
        "system_prompt": """Split a mixed description into questions, 'quoted' \\ kept.""",
    },
}


CLEAN_SYSTEM_PROMPT = """Keep or remove each question.
{"results": [{"id": 0, "judgment": "keep/remove"}, ...]}"""


def build_clean_user_text(caption: str, rubric):
    """The cleaner's user text."""
    lines = [f"# Text:\n{caption}", "", "# Items:"]
    for i, item in enumerate(rubric):
        q = item.get("question", item.get("题目", ""))
        b = item.get("basis", item.get("依据", ""))
        lines.append(f"<{i}> question: {q}")
        lines.append(f"    from: {b}")
    return "\n".join(lines)


JUDGE_LOGITS_SYSTEM_PROMPT = """Answer yes or no about the audio."""


def build_logits_user_text(item):
    dim = item.get("dimension", item.get("维度", ""))
    q = item.get("question", item.get("题目", ""))
    if dim:
        return f"Check: [{dim}] {q}"
    return f"Check: {q}"


JUDGE_GENERATE_SYSTEM_PROMPT = """Answer every question.
[{"id": 0, "answer": "yes"}]"""


def build_generate_user_text(rubric):
    lines = [f"Answer these {len(rubric)} questions:"]
    for idx, item in enumerate(rubric):
        dim = item.get("dimension", item.get("维度", ""))
        q = item.get("question", item.get("题目", ""))
        if dim:
            lines.append(f"\n{idx}) [{dim}] {q}")
        else:
            lines.append(f"\n{idx}) {q}")
    return "\n".join(lines)
)PY";

inline constexpr const char* kAnyAudioJudgeDecomposeStandIn = R"PY("""A stand-in of AnyAudio-Judge's decompose.py."""


class HFDecomposer:
    def call_text(self, system_prompt, user_content, *, max_new_tokens, temperature=0.0, no_think_marker=True):
        if no_think_marker:
            user_content = "/quiet\n" + user_content
        messages = [{"role": "system", "content": system_prompt}, {"role": "user", "content": user_content}]
        return messages
)PY";

// The files of a release, by route under /release/.
inline std::map<std::string, std::string> anyaudio_judge_release(const std::string& prompts, const std::string& decompose) {
  return {{"/release/anyaudio_judge/prompts.py", prompts}, {"/release/anyaudio_judge/decompose.py", decompose}};
}

// A prompt entry of `stage` reading the release at `url`.
inline std::string anyaudio_judge_prompt_entry(const std::string& name, const std::string& stage, const std::string& url,
                                               const std::string& prompts, const std::string& decompose) {
  return fmt::format("{}:\n  class: anyaudio_judge\n  args:\n    release: {}\n    sha256: {}\n    decompose_sha256: {}\n"
                     "    stage: {}\n",
                     name, url, sha256_hex(prompts), sha256_hex(decompose), stage);
}

// The stand-ins served here, and in `registry` (a test's registry folder) the four AnyAudio-Judge prompt entries of
// the built-in registry's names (anyaudio-decompose, -clean, -judge, -generate) reading them.
class AnyAudioJudgeStandIn {
 public:
  explicit AnyAudioJudgeStandIn(const std::filesystem::path& registry)
      : server_(anyaudio_judge_release(kAnyAudioJudgePromptsStandIn, kAnyAudioJudgeDecomposeStandIn)) {
    std::string entries;
    for (const char* stage : {"decompose", "clean", "judge", "generate"})
      entries += anyaudio_judge_prompt_entry(std::string("anyaudio-") + stage, stage, server_.url("/release"),
                                             kAnyAudioJudgePromptsStandIn, kAnyAudioJudgeDecomposeStandIn);
    std::filesystem::create_directories(registry / "prompts");
    write_bytes(registry / "prompts" / "anyaudio-judge.yaml", entries);
  }

 private:
  FileServer server_;
};

}  // namespace aeval::testing
