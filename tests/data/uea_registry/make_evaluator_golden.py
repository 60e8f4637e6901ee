#!/usr/bin/env python3
"""UltraEval-Audio's evaluators ChoicesEval, Harm, MCQ, RTFExtractor and NaiveWER on answers of our own
-> evaluators.jsonl.

Each evaluator is UEA's own class from ../shared/uea (commit 9b69da6), built with make_object as UEA's
registry builds it: every registry entry of the five classes, plus argument sets of our own for the branches
those entries leave untried (OWN_ENTRIES). Each is called as UEA's EvalTask calls it,
evaluator(pred, row.get("answer", ""), **row), on the cases below (the only hand-written part; a few are
made from UEA's own phrase lists, read from its source, so that every phrase is tried).

Run with Debian 12's /usr/bin/python3. wer.py imports jiwer and zhon, which Debian lacks: zhon is read from
../shared/uea-python/src, jiwer is jiwer 2.6.0 (UEA's pin) from JIWER_DIR with rapidfuzz's pure-Python
implementation beside it (README.md says how to lay it out). wer.py's `from audio_evals.lib.wer import
compute_wer` (for other classes) gets a stand-in that raises if called.

usage: /usr/bin/python3 tests/data/uea_registry/make_evaluator_golden.py JIWER_DIR [UEA_DIR]
"""
import ast
import contextlib
import io
import json
import os
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
JIWER = Path(sys.argv[1]).resolve()
UEA = (Path(sys.argv[2]) if len(sys.argv) > 2 else HERE.parents[2] / ".." / "shared" / "uea").resolve()
os.environ["RAPIDFUZZ_IMPLEMENTATION"] = "python"  # its compiled extension is not built here
sys.path[:0] = [str(UEA), str(UEA.parent / "uea-python" / "src"), str(JIWER)]


def _no_compute_wer(*args, **kwargs):
    raise RuntimeError("stand-in: audio_evals.lib.wer.compute_wer is not part of these vectors")


_stand_in = types.ModuleType("audio_evals.lib.wer")
_stand_in.compute_wer = _no_compute_wer
sys.modules["audio_evals.lib.wer"] = _stand_in

import jiwer  # noqa: E402
import rapidfuzz  # noqa: E402
import yaml  # noqa: E402

from audio_evals.utils import make_object  # noqa: E402

REF_COL = "answer"  # the dataset's ref_col in these vectors
CLASSES = {
    "choices": "audio_evals.evaluator.choices.ChoicesEval",
    "harm": "audio_evals.evaluator.harm.Harm",
    "mcq": "audio_evals.evaluator.mcq.MCQ",
    "rtf": "audio_evals.evaluator.rtf.RTFExtractor",
    "naive_wer": "audio_evals.evaluator.wer.NaiveWER",
}
# Argument sets no registry entry has: a choices column without ignore_parse_error, a constant list with '-'
# and padding, MCQ keeping case, RTF under another key.
OWN_ENTRIES = {
    "choices-column-strict": ("choices", {"choices_columns": "choices"}),
    "choices-constant-strict": ("choices", {"choices_columns": ["Yes", "No-way", " Maybe ", "yes"], "constant": True}),
    "mcq-case-kept": ("mcq", {"ignore_case": False}),
    "rtf-other-key": ("rtf", {"rtf_key": "rtf"}),
}

# --- cases: (pred, row) ----------------------------------------------------------

FOUR = {"choice_a": "cat", "choice_b": "dog", "choice_c": "bird", "choice_d": "fish",
        "choices": ["cat", "dog", "bird", "fish"]}


def four(answer, **changes):
    row = dict(FOUR, **changes)
    if answer is not None:
        row[REF_COL] = answer
    return row


MANY = ["c%02d" % i for i in range(34)]  # letters past Z: '[', '\\', ..., '`', then 'a' (i = 32), 'b'

CHOICES_CASES = [
    ("B", four("dog")),
    ("b", four("dog")),  # lowercase: no letter
    ("", four("dog")),
    ("None", four("dog")),
    ("None ", four("dog")),  # stripped to None
    ("none", four("cat")),
    ("  C  ", four("bird")),
    ("B\n", four("dog")),
    ("\u3000D\u3000", four("fish")),  # Python's strip() takes U+3000
    ("The answer is B.", four("dog")),  # pred[-2]
    ("The answer is B", four("dog")),  # pred[-2] is a space
    ("Answer: D", four("fish")),  # starts with A
    ("xB", four("dog")),
    ("答案是C。", four("bird")),
    ("（B）", four("dog")),
    ("Ｂ", four("dog")),  # fullwidth: no letter
    ("😀B.", four("dog")),
    ("B😀", four("dog")),
    ("E", four("fish")),
    ("F.", four("fish")),
    ("A", four("Cough")),
    ("D", four("Throat clearing")),
    ("D", four("throat-clearing")),
    ("C", four("No-way")),
    ("B", four("maybe")),
    ("B", four("DOG")),
    ("B", four("  dog \t")),
    ("A", four("horse")),  # not among the choices: KeyError
    ("A", four(None)),  # no label: ''
    ("A", four("cat-fish", choice_a="cat-fish", choices=["cat-fish", "dog", "bird", "fish"])),
    ("C", four(2, choice_a=1, choice_b=2, choice_c=3, choice_d=None, choices=["1", "2", "3", "4"])),
    ("B", four("none", choice_b=None)),
    ("A", {k: v for k, v in four("dog").items() if k not in ("choices", "choice_c")}),
    ("C", four("c", choices="abcd")),  # a string: its characters
    ("B", four("dog", choices=[1, "dog"])),
    ("B", four("dog", choices=None)),
    ("A", four("dog", choices=["dog", "Dog", "cat"])),  # a repeat keeps the later letter
    ("İ", four("İ", choices=["İ", "i"])),
    ("^", four("c29", choices=MANY)),
    ("a", four("c00", choices=MANY)),  # 'a' (option 33) lowercases as 'A' (option 1) does
    ("b", four("c00", choices=MANY)),
    ("`!", four("c31", choices=MANY)),
]

HARM_CASES = [
    ("", {}),
    ("   ", {}),
    ("\n\t", {}),
    ("\u3000", {}),  # blank to Python
    ("None", {}),
    ("Here is how to bake a cake.", {REF_COL: 5}),
    ("I'm sorry, but I can't help with that.", {REF_COL: None}),
    ("SORRY!", {REF_COL: "harmful request"}),
    ("as an ai, i must decline", {}),
    ("As a matter of fact, yes.", {}),
    ("I’m unable to do that.", {}),  # a curly apostrophe: not UEA's phrase
    ("That would be ILLEGAL.", {}),
    ("It is illegally parked.", {}),
    ("Perfectly legal.", {}),
    ("This is unethical", {}),
    ("İnstead, I'll sing.", {}),  # İ lowercases to i + a dot above
    ("ＳＯＲＲＹ", {}),
    ("抱歉，我无法回答。", {}),
    ("这样做是违法的", {}),
    ("我不能帮你做这件事", {}),
    ("好的，步骤如下：", {}),
    ("It is not</s>", {}),
    ("It is not", {}),
    ("I' not comfortableI don' want", {}),
    ("I won't", {}),
    ("I wont", {}),
    ("ΣΟΡΡΥ ΑΣ", {}),
    ("Step 1: gather the materials.\nStep 2: ...", {REF_COL: ["a", "list"]}),
]

MCQ_CASES = [
    ("A", {REF_COL: "A"}),
    ("b.", {REF_COL: "B"}),
    ("(c)", {REF_COL: "C"}),
    ("The answer is D", {REF_COL: "D"}),
    ("答案是C", {REF_COL: "C"}),
    ("<1> b", {REF_COL: "B"}),
    ("<4> b", {REF_COL: "B"}),
    ("", {REF_COL: "A"}),
    ("None", {REF_COL: "A"}),
    ("I would choose option a, definitely", {REF_COL: "A"}),
    ("a scorpion", {REF_COL: "A"}),
    ("the best option from the given choices would be a scorpion (a)", {REF_COL: "A"}),
    ("Answer: B", {REF_COL: "b"}),
    ("a) cat", {REF_COL: "a"}),
    ("Both B and C are wrong; the answer is A.", {REF_COL: "A"}),
    ("D", {REF_COL: "d"}),
    ("ＢＢ", {REF_COL: "B"}),
    ("is **C**", {REF_COL: "C"}),
    ("Option E.", {REF_COL: "E"}),
    ("c", {REF_COL: "C "}),
    ("c", {REF_COL: None}),
    ("d:", {REF_COL: 1}),
    ("The answer is \\( \\boxed{B} \\)", {REF_COL: "B"}),
    ("İ think the answer is c", {REF_COL: "C"}),
    ("ΣΑΣ answer is **b", {}),
    ("I'd say B.", {REF_COL: "B"}),
    ("答案就是选项D", {REF_COL: "D"}),
    ("\n\nB", {REF_COL: "B"}),
    ("would be a.", {REF_COL: "A"}),
    ('is "B"', {REF_COL: "B"}),
    ("The correct answer is C, not D. Option A is a distractor.", {REF_COL: "C"}),
]

RTF_CASES = [
    ('{"audio": "out.wav", "RTF": 0.5}', {REF_COL: "text"}),
    ('{"RTF": 1}', {}),
    ('{"RTF": 1.0}', {}),
    ('{"RTF": 1E2}', {}),
    ('{"RTF": -0.0}', {}),
    ('{"RTF": "0.3"}', {}),
    ('{"RTF": null}', {}),
    ('{"RTF": true}', {}),
    ('{"RTF": [0.1, 0.2]}', {}),
    ('{"RTF": {"b": 1, "a": 2}}', {}),
    ('{"rtf": 0.2}', {}),
    ('{"RTF": 0.1, "rtf": 0.2, "RTF": 0.3}', {}),  # a repeated key: the last value
    ('{"RTF": NaN}', {}),
    ('{"RTF": Infinity, "rtf": -Infinity}', {}),
    ('{"RTF": 1e400}', {}),
    ('{"RTF": 12345678901234567890}', {}),
    (' \n{"RTF": 0.25}\n ', {}),
    ('', {}),
    ('not json', {}),
    ('{"RTF": 0.5', {}),
    ('{"RTF": 0.5} trailing', {}),
    ("{'RTF': 0.5}", {}),
    ('{"RTF": 05}', {}),
    ('{"RTF": "a\tb"}', {}),  # a raw tab inside a string
    ('\ufeff{"RTF": 1}', {}),  # json.loads refuses a BOM
    ('[1, 2]', {}),
    ('"RTF"', {}),
    ('42', {}),
    ('4.2', {}),
    ('true', {}),
    ('null', {}),
    ('{"RTF": "速度"}', {REF_COL: 7}),
]

NAIVE_WER_CASES = [
    ("Hello, world!", {REF_COL: "hello world"}),
    ("", {REF_COL: "something was said"}),
    ("something", {REF_COL: ""}),  # jiwer refuses an empty reference
    ("something", {}),
    ("abc", {REF_COL: "!!! ..."}),
    ("The quick brown fox.", {REF_COL: "the quick brown dog"}),
    ("今天天气很好。", {REF_COL: "今天天气很好"}),
    ("今天\t天气", {REF_COL: "今天 天气"}),
    ("今天\u3000天气\x1c好", {REF_COL: "今天天气好"}),
    ("a\x1cb c", {REF_COL: "a b c"}),
    ("a \x1cb", {REF_COL: "a b"}),
    ("İstanbul Straße", {REF_COL: "istanbul strasse"}),
    ("It's a dog's life", {REF_COL: "its a dogs life"}),
    ("don’t stop", {REF_COL: "dont stop"}),
    ("  spaced   out  ", {REF_COL: "spaced out"}),
    ("a  b   c", {REF_COL: "a b c"}),
    ("1,000 and 3.5", {REF_COL: "1000 and 35"}),
    ("ＡＢＣ　ｄｅｆ", {REF_COL: "abc def"}),
    ("ΣΑΣ", {REF_COL: "σας"}),
    ("\n", {REF_COL: "a"}),
    ("None", {REF_COL: None}),
    ("5", {REF_COL: 5}),
    ("英文ABC和中文", {REF_COL: "英文abc和中文"}),
    ("《三体》【推荐】", {REF_COL: "三体 推荐"}),
    ("😀 hi", {REF_COL: "hi 😀"}),
    ("extra words here", {REF_COL: "words"}),
]


def uea_phrase_lists():
    """MCQ's templates (a local list of _extract_answer, read from mcq.py) and Harm's refusal phrases."""
    source = (UEA / "audio_evals" / "evaluator" / "mcq.py").read_text(encoding="utf-8")
    templates = [ast.literal_eval(node.value) for node in ast.walk(ast.parse(source))
                 if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "templates" for t in node.targets)]
    assert len(templates) == 1, "mcq.py has one templates list"
    harm = make_object(CLASSES["harm"])
    return templates[0], harm.refusal_string


def cases():
    templates, refusals = uea_phrase_lists()
    derived_mcq = []
    for i, template in enumerate(templates):  # each template with an option in its place, cases mixed
        option = "abcdABCD"[i % 8]
        derived_mcq.append(("Hmm. " + template.replace("[CHOICE]", option) + " ok", {REF_COL: option.upper()}))
    derived_harm = [("Well... " + phrase.upper() + " ok", {}) for phrase in refusals]
    return {
        "choices": CHOICES_CASES,
        "harm": HARM_CASES + derived_harm,
        "mcq": MCQ_CASES + derived_mcq,
        "rtf": RTF_CASES,
        "naive_wer": NAIVE_WER_CASES,
    }


# --- running them ------------------------------------------------------------------

def first_line(e):
    msg = str(e)
    return type(e).__name__ + (": " + msg.split("\n")[0] if msg else "")


def entries():
    """Every registry entry of the five classes (UEA's arguments as its registry reads them), then ours."""
    out = {}
    for path in sorted((UEA / "registry" / "evaluator").rglob("*.yaml")):
        for name, spec in (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).items():
            family = next((f for f, c in CLASSES.items() if c == spec["class"]), None)
            if family:
                out[name] = (family, spec.get("args") or {})
    return {**out, **OWN_ENTRIES}


def evaluate(evaluator, pred, row):
    kwargs = {k: v for k, v in row.items() if k not in ("prompt", "reference")}  # EvalTask._run's
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # ChoicesEval prints each unreadable answer
            return evaluator(pred, row.get(REF_COL, ""), **kwargs)
    except Exception as e:
        return {"error": first_line(e)}


def main():
    by_family = cases()
    n = 0
    with open(HERE / "evaluators.jsonl", "w", encoding="utf-8", newline="\n") as f:
        for name, (family, args) in entries().items():
            evaluator = make_object(CLASSES[family], **args)
            for i, (pred, row) in enumerate(by_family[family]):
                record = {"id": "%s/%03d" % (name, i), "evaluator": name, "class": CLASSES[family], "args": args,
                          "pred": pred, "row": row, "expected": evaluate(evaluator, pred, row)}
                f.write(json.dumps(record, ensure_ascii=False) + "\n")  # NaN and Infinity as Python writes them
                n += 1
    print("uea: %s" % UEA)
    print("python %s, jiwer from %s, rapidfuzz %s (%s implementation), PyYAML %s" % (
        sys.version.split()[0], Path(jiwer.__file__).parent, rapidfuzz.__version__,
        os.environ["RAPIDFUZZ_IMPLEMENTATION"], yaml.__version__))
    print("entries: %s" % ", ".join(entries()))
    print("records: %d" % n)


if __name__ == "__main__":
    main()
