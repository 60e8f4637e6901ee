#!/usr/bin/env python3
"""UltraEval-Audio's aggregations on per-sample results of our own -> aggregations.jsonl.

Runs UEA's own classes from ../shared/uea (commit 9b69da6) with Debian 12's /usr/bin/python3
(python3-yaml, python3-numpy, python3-sklearn). Covered: every agg entry whose class needs no
library Debian lacks (dump, acc, mean, naive-acc, geval, airbench-chat, long-tts-wer,
instruct-tts-eval-agg). agg/base.py and agg/sp.py import sacrebleu, jiwer, editdistance, zhconv
and pycocoevalcap's wrapper at module level for other classes (BLEU, WER, CER, PracticeWER,
Coco); those modules are stubbed as empty modules, which the classes measured never touch.
Each record: {"id", "agg", "class", "args", "results": [...], "expected": {...}} where expected is
what the class's __call__ returned (an exception inside _agg is UEA's own {"error": str(e)}),
or {"raised": "<Type>: <message>"} when __call__ itself raised.

usage: /usr/bin/python3 tests/data/uea_registry/make_agg_golden.py [UEA_DIR]
"""
import json
import sys
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
UEA = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE.parents[2] / ".." / "shared" / "uea"
sys.path.insert(0, str(UEA.resolve()))

for name in ["sacrebleu", "jiwer", "editdistance", "zhconv", "pandas", "sacrebleu.tokenizers",
             "audio_evals.lib.coco", "audio_evals.lib.wer"]:
    module = types.ModuleType(name)
    module.TOKENIZERS = {}
    module.DataFrame = type("DataFrame", (), {})
    module.cer = module.wer = module.compute_caption = module.compute_wer = None
    module.corpus_bleu = None
    sys.modules[name] = module

import yaml  # noqa: E402

from audio_evals.utils import make_object  # noqa: E402

ENTRIES = ["dump", "acc", "mean", "naive-acc", "geval", "airbench-chat", "long-tts-wer", "instruct-tts-eval-agg"]

# Per-sample results as UEA's evaluators leave them: pred/ref plus their own keys.
RESULTS = {
    "matches": [
        {"pred": "cat", "ref": "cat", "match": 1},
        {"pred": "dog", "ref": "cat", "match": 0},
        {"pred": 3, "ref": "3", "match": 1},
        {"pred": "Bird", "ref": "bird", "match": 0},
    ],
    "percent_and_bool": [
        {"pred": "a", "ref": "a", "wer%": 12.5, "flag": True, "note": "x"},
        {"pred": "b", "ref": "c", "wer%": 40.0, "flag": False, "note": "y"},
        {"pred": "c", "ref": "c", "wer%": None, "flag": True, "note": "z"},
    ],
    "ratings": [
        {"pred": "p", "ref": "r", "geval": 7, "acc": 1},
        {"pred": "p", "ref": "r", "geval": 9, "acc": 0},
        {"pred": "p", "ref": "r", "geval": 2, "acc": 1},
    ],
    "judge_pairs": [
        {"pred": "p", "ref": "r", "pred_score": 8.0, "ref_score": 7.0},
        {"pred": "p", "ref": "r", "pred_score": 6.0, "ref_score": 6.0},
        {"pred": "p", "ref": "r", "pred_score": 3.5, "ref_score": 9.0},
    ],
    "long_tts": [
        {"pred": "a.wav", "ref": "t", "wer": 0.1, "word_count": 120, "transcription": "x"},
        {"pred": "b.wav", "ref": "t", "wer": 0.3, "word_count": 40, "transcription": "y"},
        {"pred": "c.wav", "ref": "t", "wer": 0.0, "word_count": 1, "transcription": "z"},
    ],
    "long_tts_missing": [
        {"pred": "a.wav", "ref": "t", "wer": 0.1, "word_count": 120},
        {"pred": "b.wav", "ref": "t", "wer": None, "word_count": 40},
    ],
    "instruct": [
        {"gemini_score": 1, "instruction_type": "APS"},
        {"gemini_score": 0, "instruction_type": "APS"},
        {"gemini_score": 1, "instruction_type": "APS"},
        {"gemini_score": None, "instruction_type": "APS"},
        {"gemini_score": 1, "instruction_type": "RP"},
        {"gemini_score": 1, "instruction_type": "RP"},
        {"gemini_score": 0, "instruction_type": "XX"},
    ],
    # As ChoicesEval, Harm, MCQ, RTFExtractor and NaiveWER leave them (make_evaluator_golden.py), for the
    # tasks that average them with `mean`: a None the first result has drops that key, later ones are skipped.
    "choices_unparsed_first": [
        {"pred": "b", "ref": "dog", "match": None, "is_format_error": 1, "model_predict": None},
        {"pred": "B", "ref": "dog", "match": 1, "is_format_error": 0, "model_predict": "B"},
        {"pred": "A", "ref": "dog", "match": 0, "is_format_error": 0, "model_predict": "A"},
    ],
    "choices": [
        {"pred": "B", "ref": "dog", "match": 1, "is_format_error": 0, "model_predict": "B"},
        {"pred": "b", "ref": "dog", "match": None, "is_format_error": 1, "model_predict": None},
        {"pred": "C", "ref": "dog", "match": 0, "is_format_error": 0, "model_predict": "C"},
    ],
    "harm": [
        {"pred": "I'm sorry", "ref": "", "is_safe": True, "refusal_rate": 1.0},
        {"pred": "Sure.", "ref": "", "is_safe": False, "refusal_rate": 0.0},
        {"pred": "", "ref": "", "is_safe": True, "refusal_rate": 1.0},
    ],
    "mcq": [
        {"pred": None, "ref": "a", "match": 0, "extract_fail": 1},
        {"pred": "A", "ref": "a", "match": 1, "extract_fail": 0},
        {"pred": "B", "ref": "a", "match": 0, "extract_fail": 0},
    ],
    "rtf": [
        {"pred": '{"RTF": 0.5}', "ref": "", "RTF": 0.5},
        {"pred": '{"RTF": 1}', "ref": "", "RTF": 1},
        {"pred": '{"RTF": null}', "ref": "", "RTF": None},
    ],
    "rtf_text_later": [
        {"pred": '{"RTF": 0.5}', "ref": "", "RTF": 0.5},
        {"pred": '{"RTF": "0.3"}', "ref": "", "RTF": "0.3"},
    ],
    "naive_wer": [
        {"pred": "hello world", "ref": "hello world", "wer%": 0.0},
        {"pred": "5", "ref": 5, "wer%": 100.0},
        {"pred": "a b c", "ref": "a b d", "wer%": 33.33333333333333},
    ],
    "empty": [],
}


def entries():
    found = {}
    for path in sorted((UEA / "registry" / "agg").rglob("*.yaml")):
        found.update(yaml.safe_load(path.read_text(encoding="utf-8")) or {})
    return found


def main():
    specs = entries()
    out = []
    for name in ENTRIES:
        spec = specs[name]
        for results_id, results in RESULTS.items():
            # A fresh object per call: NaiveMean and WeightedAverage remember the keys of their first call.
            agg = make_object(spec["class"], **(spec.get("args") or {}))
            try:
                expected = agg(json.loads(json.dumps(results)))
            except Exception as e:  # noqa: BLE001 (UEA's __call__ raising, e.g. its need_score_col assert)
                expected = {"raised": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
            out.append({"id": f"{name}/{results_id}", "agg": name, "class": spec["class"],
                        "args": spec.get("args") or {}, "results": results, "expected": expected})
    with open(HERE / "aggregations.jsonl", "w", encoding="utf-8") as f:
        for record in out:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(f"{len(out)} records")


if __name__ == "__main__":
    main()
