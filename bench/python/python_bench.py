#!/usr/bin/env python3
"""aeval's Python package side by side with the Python references, in one process (bench/README.md).

    PYTHONPATH=build/python /usr/bin/python3 bench/python/python_bench.py [--repeat 5]

Per-call overhead of a tiny WER (Python list in, Result out; then with its details read), and throughput on
larger inputs: corpus BLEU-4 (NLTK method1), METEOR (NLTK with WordNet 3.0, on the AudioCaps captions of
../shared/reference/nltk_meteor.jsonl), strip-equal, exact-match, qa-exist-match and choice-strings-match
(UltraEval-Audio's own evaluators, ../shared/uea), Pearson/Spearman/Kendall (SciPy), ROC-AUC (scikit-learn), each against
aeval on the same data (NumPy arrays for the statistics), and the aeval CLI (`aeval score wer`, process start
included) on the WER corpus. jiwer, sacreBLEU, rouge-score and pycocoevalcap are not Debian packages: their
metrics have no reference to run beside here.
Each number is the median of --repeat runs.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import aeval


def median_seconds(function, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def corpus(n, seed=0):
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(500)]
    refs = [" ".join(rng.choice(words) for _ in range(rng.randint(5, 20))) for _ in range(n)]
    hyps = [" ".join(w if rng.random() > 0.2 else rng.choice(words) for w in r.split()) for r in refs]
    return hyps, refs


def meteor_row(repeat):
    from nltk.translate.meteor_score import meteor_score
    here = os.path.dirname(os.path.abspath(__file__))
    golden = os.environ.get("AEVAL_REFERENCE_DIR", os.path.join(here, "..", "..", "..", "shared", "reference"))
    pairs = []
    with open(os.path.join(golden, "nltk_meteor.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            if "asterisk:" not in r["id"]:
                pairs.append((r["input"]["hypothesis"], r["input"]["references"]))
    pairs = [pairs[i % len(pairs)] for i in range(2000)]
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    sys.path.insert(0, os.path.join(here, "..", "compare"))
    from text_metrics_reference import debian_wordnet
    wordnet = debian_wordnet()  # loading is not timed
    meteor_score([["warm", "up"]], ["warm", "up"], wordnet=wordnet)
    aeval.score("meteor", ["warm up"], [["warm up"]])
    t_aeval = median_seconds(lambda: aeval.score("meteor", hyps, refs), repeat)
    t_nltk = median_seconds(lambda: [meteor_score([r.lower().split() for r in rs], h.lower().split(), wordnet=wordnet)
                                     for h, rs in pairs], repeat)
    return ("METEOR, 2,000 caption pairs", f"aeval {t_aeval * 1e3:.1f} ms",
            f"NLTK 3.8 {t_nltk * 1e3:.0f} ms ({t_nltk / t_aeval:.0f}×)")


def uea_rows(repeat):
    """UltraEval-Audio's own evaluators (its pinned Python in ../shared/uea, on Debian's python3-regex) beside the
    aeval metrics that reproduce them, on the AudioCaps captions of the golden METEOR set: the answer is the first
    caption, the choices all of them. Each row also checks that both give the same number."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.environ.get("AEVAL_UEA_DIR", os.path.join(here, "..", "..", "..", "shared", "uea")))
    from audio_evals.evaluator.base import EM
    from audio_evals.evaluator.qa_exact_match import QAExactMatchEvaluator, QAExistMatchEvaluator
    from audio_evals.evaluator.string_match import ChoiceStringMatch
    golden = os.environ.get("AEVAL_REFERENCE_DIR", os.path.join(here, "..", "..", "..", "shared", "reference"))
    with open(os.path.join(golden, "nltk_meteor.jsonl")) as f:
        items = [(r["input"]["hypothesis"], r["input"]["references"]) for r in map(json.loads, f) if "asterisk:" not in r["id"]]
    items = [items[i % len(items)] for i in range(20000)]
    preds = [h for h, _ in items]
    rows = []
    for metric, name, evaluator, refs, call in (
            ("strip-equal", "EM", EM(), [r[0] for _, r in items], lambda e, p, r: e(p, r)),
            ("exact-match", "QAExactMatchEvaluator", QAExactMatchEvaluator(), [r for _, r in items],
             lambda e, p, r: e(p, r)),
            ("qa-exist-match", "QAExistMatchEvaluator", QAExistMatchEvaluator(), [r for _, r in items],
             lambda e, p, r: e(p, r)),
            ("choice-strings-match", "ChoiceStringMatch", ChoiceStringMatch(), [[r[0]] + r for _, r in items],
             lambda e, p, r: e(p, r[0], choices=r[1:]))):
        got = aeval.score(metric, preds, refs).value
        want = sum(call(evaluator, p, r)["match"] for p, r in zip(preds, refs)) / len(preds)
        assert abs(got - want) < 1e-12, (metric, got, want)
        t_aeval = median_seconds(lambda: aeval.score(metric, preds, refs), repeat)
        t_uea = median_seconds(lambda: [call(evaluator, p, r) for p, r in zip(preds, refs)], repeat)
        rows.append((f"{metric}, 20,000 answers", f"aeval {t_aeval * 1e3:.1f} ms",
                     f"UltraEval-Audio {name} {t_uea * 1e3:.0f} ms ({t_uea / t_aeval:.0f}×)"))
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", "..", "build", "aeval"))
    a = parser.parse_args()
    rows = []

    # A training loop scores a step and moves on: each result is dropped (a list keeping 200,000 of them
    # would time the allocator instead); the bare loop's time is subtracted.
    calls = 200000
    hyp, ref = ["a b c"], ["a b d"]

    def loop(body):
        def run():
            for _ in range(calls):
                body()
        return median_seconds(run, a.repeat)

    t_loop = loop(lambda: None)
    t = loop(lambda: aeval.score("wer", hyp, ref))
    rows.append(("tiny WER, one call (aeval.score)", f"{(t - t_loop) / calls * 1e6:.2f} µs/call", ""))
    t = loop(lambda: aeval.score("wer", hyp, ref).details)
    rows.append(("tiny WER, one call and its details read", f"{(t - t_loop) / calls * 1e6:.2f} µs/call", ""))

    hyps, refs = corpus(20000)
    t_aeval = median_seconds(lambda: aeval.score("wer", hyps, refs), a.repeat)
    with tempfile.TemporaryDirectory() as d:
        for name, lines in (("h.txt", hyps), ("r.txt", refs)):
            with open(os.path.join(d, name), "w") as f:
                f.write("\n".join(lines) + "\n")
        cli = lambda: subprocess.run([a.binary, "score", "wer", "--hyp", os.path.join(d, "h.txt"), "--ref",
                                      os.path.join(d, "r.txt")], check=True, capture_output=True)
        t_cli = median_seconds(cli, a.repeat)
    rows.append(("WER, 20,000 segments", f"aeval.score {t_aeval * 1e3:.1f} ms", f"aeval CLI {t_cli * 1e3:.1f} ms"))

    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    hyps_b, refs_b = corpus(5000, seed=1)
    t_aeval = median_seconds(lambda: aeval.score("nltk-bleu", hyps_b, [[r] for r in refs_b]), a.repeat)
    t_nltk = median_seconds(lambda: corpus_bleu([[r.lower().split()] for r in refs_b], [h.lower().split() for h in hyps_b],
                                                smoothing_function=SmoothingFunction().method1), a.repeat)
    rows.append(("corpus BLEU-4, 5,000 segments", f"aeval {t_aeval * 1e3:.1f} ms", f"NLTK 3.8 {t_nltk * 1e3:.1f} ms ({t_nltk / t_aeval:.0f}×)"))

    rows.append(meteor_row(a.repeat))
    rows += uea_rows(a.repeat)

    from scipy import stats
    rng = np.random.default_rng(0)
    x = rng.standard_normal(100000)
    y = x + rng.standard_normal(100000)
    for metric, reference in (("pearson", lambda: stats.pearsonr(x, y)), ("spearman", lambda: stats.spearmanr(x, y)),
                              ("kendall", lambda: stats.kendalltau(x, y))):
        t_aeval = median_seconds(lambda: aeval.score(metric, y, x), a.repeat)
        t_ref = median_seconds(reference, a.repeat)
        rows.append((f"{metric}, 100,000 pairs", f"aeval {t_aeval * 1e3:.1f} ms", f"SciPy 1.10 {t_ref * 1e3:.1f} ms ({t_ref / t_aeval:.1f}×)"))

    from sklearn.metrics import roc_auc_score
    labels = (rng.random(100000) < 0.3).astype(int)
    scores = labels + rng.standard_normal(100000)
    t_aeval = median_seconds(lambda: aeval.score("roc-auc", scores, labels), a.repeat)
    t_ref = median_seconds(lambda: roc_auc_score(labels, scores), a.repeat)
    rows.append(("ROC-AUC, 100,000 scores", f"aeval {t_aeval * 1e3:.1f} ms", f"scikit-learn 1.2 {t_ref * 1e3:.1f} ms ({t_ref / t_aeval:.1f}×)"))

    print("| measurement | aeval | reference |\n|---|---:|---:|")
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]} |")


if __name__ == "__main__":
    main()
