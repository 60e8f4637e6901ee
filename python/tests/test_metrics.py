"""aeval's Python metrics equal their references (the golden vectors of ../shared/reference, and Debian's
NLTK, SciPy and scikit-learn run here) and `aeval score`, and refuse bad arguments with Python errors."""
import json
import math
import subprocess
import threading
import wave

import numpy as np
import pytest

import aeval
from aeval import jiwer, pystoi, sacrebleu
from conftest import BINARY, SHARED, golden


def test_jiwer_shape_matches_jiwer_on_every_raw_golden_pair():
    pairs = [r for r in golden("jiwer.jsonl") if r.get("kind") == "pair" and r.get("variant") == "raw"]
    assert len(pairs) > 100
    for r in pairs:
        ref, hyp, want = r["input"]["reference"], r["input"]["hypothesis"], r["expected"]
        assert jiwer.wer(ref, hyp) == want["wer"], r["id"]
        assert jiwer.mer(ref, hyp) == want["mer"], r["id"]
        assert jiwer.cer(ref, hyp) == want["cer"], r["id"]


def test_sacrebleu_shape_matches_sacrebleu_on_every_golden_corpus():
    records = [r for r in golden("sacrebleu.jsonl") if r.get("kind") in ("corpus_bleu", "corpus_chrf")]
    assert len(records) > 50
    for r in records:
        params = {k: v for k, v in r["params"].items() if k != "api"}
        call = sacrebleu.corpus_bleu if r["kind"] == "corpus_bleu" else sacrebleu.corpus_chrf
        got = call(r["input"]["hypotheses"], r["input"]["references"], **params)
        assert got.score == pytest.approx(r["expected"]["score"], abs=1e-9), r["id"]
        assert got.signature == r["expected"]["signature"], r["id"]


def test_nltk_bleu_equals_debians_nltk():
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    records = [r for r in golden("nltk_bleu.jsonl") if r.get("kind") == "corpus"][:20]
    assert records
    for r in records:
        hyps, refs = r["input"]["hypotheses"], r["input"]["references"]
        got = aeval.score("nltk-bleu", hyps, refs).details
        want = corpus_bleu([[x.lower().split() for x in rs] for rs in refs], [h.lower().split() for h in hyps],
                           weights=(0.25,) * 4, smoothing_function=SmoothingFunction().method1)
        assert got["bleu_4"] == pytest.approx(want, rel=1e-12), r["id"]


def test_statistics_equal_debians_scipy_and_sklearn():
    from scipy import stats
    from sklearn.metrics import roc_auc_score
    for r in golden("stats.jsonl")[:10]:
        x, y, labels = r["input"]["x"], r["input"]["y"], r["input"]["labels"]
        assert aeval.score("pearson", y, x).value == pytest.approx(stats.pearsonr(x, y)[0], rel=1e-12), r["id"]
        assert aeval.score("spearman", y, x).value == pytest.approx(stats.spearmanr(x, y)[0], rel=1e-12), r["id"]
        assert aeval.score("kendall", y, x).value == pytest.approx(stats.kendalltau(x, y)[0], rel=1e-12), r["id"]
        assert aeval.score("roc-auc", y, labels).value == pytest.approx(roc_auc_score(labels, y), rel=1e-12), r["id"]
        # NumPy arrays and text give one result: the same code behind both.
        assert aeval.score("kendall", np.array(y), np.array(x)).details == \
            aeval.score("kendall", [repr(v) for v in y], [repr(v) for v in x]).details, r["id"]


def cli(metric, hyps, refs, tmp_path, *options):
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    out = subprocess.run([str(BINARY), "score", metric, "--hyp", str(tmp_path / "h.txt"), "--ref", str(tmp_path / "r.txt"),
                          *options], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_every_text_metric_equals_aeval_score(tmp_path):
    hyps = ["the cat sat on the mat", "a dog barks loudly", "rain is falling", "0.7", "yes"]
    refs = ["the cat is on the mat", "the dog barks", "rain falls", "0.5", "no"]
    numbers_h, numbers_r = ["0.1", "0.4", "0.35", "0.8", "0.7"], ["0", "0", "1", "1", "1"]
    for m in aeval.metrics():
        if m["input"] not in ("text", "numbers"):
            continue
        h, r = (numbers_h, numbers_r) if m["input"] == "numbers" else (hyps, refs)
        want = cli(m["name"], h, r, tmp_path)
        for annotation in ("metric", "normalize", "segments"):  # what the command adds about its input
            want.pop(annotation, None)
        got = aeval.score(m["name"], h, r)
        assert json.loads(json.dumps(got.details)) == want, m["name"]


def read_wav(path):
    with wave.open(str(path)) as w:
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float64) / 32768.0
        return data, w.getframerate()


def test_pystoi_shape_equals_aeval_score_on_real_speech(tmp_path):
    signal_dir = SHARED / "reference" / "signal"
    wavs = sorted(signal_dir.rglob("*.wav"))
    if len(wavs) < 2:
        pytest.skip("no signal golden audio")
    clean, rate = read_wav(wavs[0])
    noisy = clean + 0.05 * np.random.default_rng(0).standard_normal(clean.size)
    with wave.open(str(tmp_path / "noisy.wav"), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(rate)
        w.writeframes((np.clip(noisy, -1, 32767 / 32768) * 32768).astype("<i2").tobytes())
    noisy, _ = read_wav(tmp_path / "noisy.wav")
    for extended, metric in ((False, "stoi"), (True, "estoi")):
        want = json.loads(subprocess.run([str(BINARY), "score", metric, "--ref", str(wavs[0]), "--deg",
                                          str(tmp_path / "noisy.wav")], capture_output=True, text=True,
                                         check=True).stdout)
        value = want["score"]
        assert pystoi.stoi(clean, noisy, rate, extended=extended) == pytest.approx(value, abs=1e-12)


def test_bad_arguments_are_python_errors_naming_the_argument():
    with pytest.raises(TypeError, match="hypotheses must be a list of str, not one str"):
        aeval.score("wer", "a b", ["a b"])
    with pytest.raises(ValueError, match="differ in number"):
        aeval.score("wer", ["a"], ["a", "b"])
    with pytest.raises(ValueError, match="no text metric named 'werr'"):
        aeval.score("werr", ["a"], ["a"])
    with pytest.raises(TypeError, match="bleu takes no parameter 'tokenise'"):
        aeval.score("bleu", ["a"], ["a"], tokenise="zh")
    x = np.zeros(16000)
    with pytest.raises(ValueError, match="reference must have 1 dimension, not 2"):
        aeval.score_audio("stoi", np.zeros((2, 8000)), x, 16000)
    with pytest.raises(TypeError, match="degraded must hold real numbers"):
        aeval.score_audio("stoi", x, np.array(["a"] * 10), 16000)
    with pytest.raises(TypeError, match="must be a NumPy array"):
        aeval.score_audio("stoi", x.tolist(), x, 16000)
    with pytest.raises(ValueError, match="is empty"):
        aeval.score_embeddings("cosine", np.zeros((0, 3)), np.zeros((1, 3)))


def test_calls_from_threads_give_the_same_results():
    hyps = [f"word {i} and more words {i % 7}" for i in range(300)]
    refs = [f"word {i} and words {i % 5}" for i in range(300)]
    want = aeval.score("wer", hyps, refs).details
    results = []
    threads = [threading.Thread(target=lambda: results.append(aeval.score("wer", hyps, refs).details)) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [want] * 8
