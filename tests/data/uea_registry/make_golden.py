"""Writes prompts.jsonl and processes.jsonl in this folder.

Every expected value is what UltraEval-Audio's own code returns: the registry is
read with audio_evals.registry.Registry._load_registry, prompts are built with
audio_evals.utils.make_object and rendered with Prompt.load, post-processes are
built with make_object from their registry entry and called on each answer.
The UltraEval-Audio checkout is read from <repo>/../shared/uea (or argv[1]);
nothing from it is copied here. Only the inputs (ROWS, ANSWERS) are written here.

    /usr/bin/python3 tests/data/uea_registry/make_golden.py

See README.md for the record formats and the stubs put in sys.modules.
"""
import json
import logging
import math
import os
import re
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
UEA = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else (REPO / ".." / "shared" / "uea").resolve()
sys.path.insert(0, str(UEA))

# --- stubs -----------------------------------------------------------------
# audio_evals.utils imports pandas at module level and names pd.DataFrame in one
# function's annotation (make_object does not use pandas);
# audio_evals.registry imports four base classes only to annotate return types of
# the get_* helpers. Their real modules pull in pandas, sacrebleu, jiwer, sklearn,
# tqdm, huggingface_hub and a lib/wer.py absent from the pinned copy. None of the
# stubs is reached by the code measured here (YAML walk, make_object, Prompt.load,
# the Process classes).
STUBS = {
    "pandas": {"DataFrame": "DataFrame"},
    "audio_evals.agg.base": {"AggPolicy": "AggPolicy"},
    "audio_evals.dataset.dataset": {"Dataset": "Dataset"},
    "audio_evals.models.model": {"Model": "Model"},
}
for _mod, _names in STUBS.items():
    _m = types.ModuleType(_mod)
    for _attr, _cls in _names.items():
        setattr(_m, _attr, type(_cls, (), {}))
    sys.modules[_mod] = _m

import jinja2  # noqa: E402
import jinja2.meta  # noqa: E402
import yaml  # noqa: E402

from audio_evals.registry import Registry  # noqa: E402
from audio_evals.utils import make_object  # noqa: E402

logging.disable(logging.CRITICAL)  # ContentExtract/JsonExtract log a warning per failed parse

# --- prompt rows ---------------------------------------------------------------

PLAIN = {
    "WavPath": "/data/clips/0001.wav",
    "text": "hello world",
    "prompt_text": "Say it slowly.",
    "question": "What is the speaker doing?",
    "choices": ["singing", "talking", "laughing", "crying"],
    "choice_a": "cat",
    "choice_b": "dog",
    "choice_c": "bird",
    "choice_d": "fish",
    "QuestionText": "How many speakers are there?",
    "instruction": "Speak in a calm voice.",
    "system_prompt": "You are a helpful assistant.",
    "response": "The speaker is talking.",
    "real_prompt": "Describe the sound.",
    "question_text": "Is it raining?",
}

ROWS = [
    ("plain", PLAIN),
    ("quotes", {
        "WavPath": "C:\\audio\\it's \"x\".wav",
        "text": "She said \"hi\" and he said 'bye' \\ back\\slash",
        "prompt_text": "{{ x }} and {% if %} and {# c #} stay literal",
        "question": "{% for c in choices %}{{ c }}{% endfor %}",
        "choices": ["{{ a }}", "'single'", "\"double\"", "\\n is not a newline", "}{"],
        "choice_a": "{{",
        "choice_b": "}}",
        "choice_c": "{%",
        "choice_d": "%}",
        "QuestionText": "<audio>x</audio><|en|>",
        "instruction": "raw {{ WavPath }} text",
        "system_prompt": "{\"content\": \"\"}",
        "response": "a\\tb (backslash-t, not a tab)",
        "real_prompt": "{{ 1 + 1 }}",
        "question_text": "it's \"quoted\"",
    }),
    ("cjk", {
        "WavPath": "/数据/音频/第一.wav",
        "text": "今天天气很好。",
        "prompt_text": "日本語のテキストです。",
        "question": "说话人的情绪是什么？",
        "choices": ["开心😀", "难过😢", "生气", "平静"],
        "choice_a": "猫",
        "choice_b": "犬",
        "choice_c": "🐦鸟",
        "choice_d": "魚",
        "QuestionText": "한국어 질문입니까?",
        "instruction": "用温柔的语气朗读",
        "system_prompt": "你是一个乐于助人的助手。",
        "response": "👍 好的",
        "real_prompt": "请描述这段音频。",
        "question_text": "これは何の音ですか？",
    }),
    ("whitespace", {
        "WavPath": "",
        "text": "line one\nline two\n",
        "prompt_text": "\ttabbed\tvalue\t",
        "question": "  leading and trailing spaces  ",
        "choices": ["", " ", "a\nb", "\t"],
        "choice_a": "",
        "choice_b": "\n",
        "choice_c": "\u3000全角空格\u3000",
        "choice_d": "\r\nCRLF\r\n",
        "QuestionText": "\n",
        "instruction": "",
        "system_prompt": "",
        "response": "trailing newline\n",
        "real_prompt": "x\n\ny",
        "question_text": "\u00a0nbsp\u00a0",
    }),
    ("none", {k: ([None, "b"] if k == "choices" else None) for k in PLAIN}),
    ("types", {
        "WavPath": 42,
        "text": ["a", "b"],
        "prompt_text": {"k": "v", "n": 1},
        "question": 0.1,
        "choices": [1, 2.5e-7, True, None, ["x"], {"k": 1}],
        "choice_a": True,
        "choice_b": False,
        "choice_c": 2.5e-7,
        "choice_d": 0,
        "QuestionText": -3,
        "instruction": 1e20,
        "system_prompt": ["nested", ["list"], "it's"],
        "response": {"text": "hi", "audio": None},
        "real_prompt": 3.0,
        "question_text": 12345678901234567890,
    }),
    # 27 choices: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[26] has no element.
    ("choices27", dict(PLAIN, choices=["c%02d" % i for i in range(27)])),
    ("empty", {}),
    ("wavonly", {"WavPath": "/data/clips/0002.wav"}),
]
FULL_ROWS = {"plain", "quotes", "cjk", "whitespace", "none", "types", "choices27"}

# --- process answers -------------------------------------------------------------

ANSWERS = [
    # JSON with "content"
    '{"content": "hello world"}',
    '{"content": {"text": "nested", "n": [1, 2]}}',
    '{"content": 42}',
    '{"content": 3.14}',
    '{"content": [1, "two", null]}',
    '{"content": null}',
    '{"content": true}',
    '{"b": 1, "content": {"z": 1, "a": 2, "m": 3}, "a": 2}',
    '{"outer": {"content": "deep"}}',
    '{"content": 12345678901234567890}',
    '{"content": 1e400}',
    '{"content": -0.0}',
    '{"content": "中文内容"}',
    '{"content": "with \\"escaped\\" quotes and \\u4e2d \\ud83d\\ude00"}',
    # fences
    '```json\n{"content": "fenced json"}\n```',
    '```\n{"content": "plain fence"}\n```',
    '```json\n{"content": "fence then text"}\n```\nHope this helps!',
    '```json\n{"content": "unclosed"}',
    '```\n{"content": "unclosed plain"}\n',
    '```JSON\n{"content": "upper tag"}\n```',
    '```json\n{bad json}\n```',
    '```json{"content": "no newline"}```',
    # Python literals (ast.literal_eval fallback)
    "{'content': 'single quotes'}",
    "{'content': True, 'x': None}",
    "{'content': (1, 2)}",
    "{'content': {1, 2}}",
    "{'content': b'bytes'}",
    "{'content': None}",
    "{'content': {1: 'a', 'b': 2}}",
    "{'content': 1+2j}",
    # malformed / odd JSON
    '{"content": "unterminated}',
    '{content: "no quotes"}',
    '{"content": NaN}',
    '{"content": Infinity}',
    '{"content": "first", "content": "second"}',
    '{"content": "a"}\n{"content": "b"}',
    '{"content": "x",}',
    # whitespace around
    '  \t\n{"content": "padded"}\n\u3000',
    '\u3000{"content": "ideographic space"}\u3000',
    '\t{"text": "tabbed", "audio": "t.wav"}\n',
    # extract_audio / extract_text
    '{"audio": "/tmp/out.wav", "text": "transcript"}',
    '{"text": "only text"}',
    '{"audio": "only audio"}',
    '{"audio": null, "text": ""}',
    '{"audio": {"path": "a.wav", "sr": 16000}, "text": ["a", "b"]}',
    '{"text": "x"} trailing',
    "{'audio': 'single.wav', 'text': 'single'}",
    # JSON that is not an object
    '[{"audio": "x", "content": "y"}]',
    '"a json string"',
    '123',
    'null',
    'true',
    # multiple choice
    "The answer is (B)",
    "答案是C",
    "选项 D 正确",
    "I think a",
    "boxed{C}",
    "\\boxed{A}",
    "ANSWER: d",
    "1. B",
    "The correct answer is **C**.",
    "答案：B",
    "答案为 A。",
    "所以选D",
    "I'm not sure.",
    "",
    "无法确定",
    "b",
    "Let me think.\nThe speaker sounds happy.\nThe answer is: D",
    "(A) because the speaker laughs",
    "Option c is right",
    "The correct answer is option B, because the dog barks.",
    "选择B。",
    "B是正确的",
    "答案应该是C",
    "正确答案：\n\nA",
    "None of the above",
    "The correct answer is $\\boxed{D}$",
    "E",
    "答案是E",
    "A: dog\nB: cat",
    "  c.  ",
    "Ｂ",
    "答案是c",
    "故选C",
    "只有选项B是对的",
    # Qwen ASR outputs
    "<|en|>hello , world .",
    "<|zh|>今天 天气 很好 。",
    "<|en|><|notimestamps|>  multiple   spaces\there  ",
    "hello ,world ! how are you ?",
    "<|startoftranscript|><|en|><|transcribe|>Mr . Smith ; yes : no",
    "<|unclosed tag and |> stray",
    "中 文 ， 空 格 。",
    # English texts
    "I have twenty five apples and $3.50.",
    "He finished 1st, she was 2nd; it's the 21st century.",
    "The colour of the neighbour's theatre is grey.",
    "I can't, won't, and shouldn't've done it; y'all'd know.",
    "Mr. and Mrs. Smith met Dr. Jones at St. Mary's.",
    "[noise] Hello (laugh) <unk> um uh hmm world.",
    "Café naïve résumé Ångström façade",
    "Symbols: @#%&*+=/\\|~^ and © ® ™ — – …",
    "A well-known, state-of-the-art, twenty-one-year-old e-mail",
    "rock 'n' roll, the '90s, O'Neil's 'quoted' words",
    "one hundred and two point five percent, 1,000,000 and 3.14159",
    "It costs £20 or €15.99 or 5 cents, about 10%.",
    "In 1999 and 2024, at 3:45pm, 1/2 cup",
    # Chinese texts
    "2024年3月5日，我有3个苹果。",
    "增长了50%，约12.5%",
    "价格是¥12.5元，还有￥100",
    "电话：13812345678，座机010-12345678",
    "3/4的人同意，1/2的人反对",
    "我用iPhone 15 Pro拍了100张照片",
    "第1名，共20人，温度-5.5度",
    "今天是二零二四年，时间是10:30",
    "嗯，那个，就是说……好吧！",
    "全角数字１２３和ＡＢＣ",
]

SKIP_CLASSES = {"audio_evals.process.speech.Speech2text"}  # needs an audio file and an ASR model


# --- helpers ---------------------------------------------------------------------

def first_line(e):
    msg = str(e)
    return type(e).__name__ + (": " + msg.split("\n")[0] if msg else "")


def is_json(v):
    """True when json.dumps would write v back unchanged (no tuple->list, int-key->str, NaN)."""
    if v is None or isinstance(v, (str, bool, int)):
        return True
    if isinstance(v, float):
        return math.isfinite(v)
    if isinstance(v, list):
        return all(is_json(x) for x in v)
    if isinstance(v, dict):
        return all(isinstance(k, str) and is_json(x) for k, x in v.items())
    return False


def as_expected(v):
    return v if is_json(v) else {"python_repr": repr(v)}


def dump(rec):
    return json.dumps(rec, ensure_ascii=False, allow_nan=False)


def template_variables(t, env, out):
    if isinstance(t, str):
        out |= jinja2.meta.find_undeclared_variables(env.parse(t))
    elif isinstance(t, list):
        for x in t:
            template_variables(x, env, out)
    elif isinstance(t, dict):
        for x in t.values():
            template_variables(x, env, out)


def render(spec, row):
    prompt = make_object(spec["cls"], **spec["args"])
    try:
        return as_expected(prompt.load(**row))
    except Exception as e:  # Prompt.load wraps jinja2's UndefinedError in a ValueError
        cause = e.__context__ if isinstance(e.__context__, jinja2.exceptions.UndefinedError) else e
        m = re.match(r"'(.*)' is undefined$", str(cause).split("\n")[0])
        return {"error": first_line(e), "missing": m.group(1) if m else None}


def main():
    reg = Registry([UEA / "registry"])
    prompts = reg._load_registry(reg._registry_paths, "prompt")
    processes = reg._load_registry(reg._registry_paths, "process")

    env = jinja2.Environment()
    variables = set()
    for spec in prompts.values():
        template_variables(spec["args"]["template"], env, variables)
    for rid, row in ROWS:
        if rid in FULL_ROWS:
            assert variables <= set(row), (rid, variables - set(row))

    n_prompt = 0
    with open(HERE / "prompts.jsonl", "w", encoding="utf-8", newline="\n") as f:
        for name, spec in prompts.items():
            assert spec["cls"] == "audio_evals.prompt.base.Prompt", name
            for rid, row in ROWS:
                f.write(dump({"id": "%s/%s" % (name, rid), "prompt": name, "row": row,
                              "expected": render(spec, row)}) + "\n")
                n_prompt += 1

    n_process = 0
    with open(HERE / "processes.jsonl", "w", encoding="utf-8", newline="\n") as f:
        for name, spec in processes.items():
            if spec["cls"] in SKIP_CLASSES:
                continue
            try:
                proc, init_error = make_object(spec["cls"], **spec["args"]), None
            except Exception as e:
                proc, init_error = None, {"error": first_line(e)}
            for i, answer in enumerate(ANSWERS):
                if init_error is not None:
                    expected = init_error
                else:
                    try:
                        expected = as_expected(proc(answer))
                    except Exception as e:
                        expected = {"error": first_line(e)}
                f.write(dump({"id": "%s/%03d" % (name, i), "process": name, "class": spec["cls"],
                              "args": spec["args"], "answer": answer, "expected": expected}) + "\n")
                n_process += 1

    print("uea: %s" % UEA)
    import markupsafe
    import more_itertools
    import regex
    print("python %s, jinja2 %s, MarkupSafe %s, PyYAML %s, regex %s, more_itertools %s" % (
        sys.version.split()[0], jinja2.__version__, markupsafe.__version__, yaml.__version__,
        regex.__version__, more_itertools.__version__))
    print("prompts: %d entries x %d rows = %d records" % (len(prompts), len(ROWS), n_prompt))
    print("processes: %d records (%d answers)" % (n_process, len(ANSWERS)))
    print("template variables: %s" % ", ".join(sorted(variables)))


if __name__ == "__main__":
    main()
