"""aeval from Python: the exact metrics of the C++ library and aeval's runs.

    import aeval
    aeval.score("wer", ["the cat sat"], ["the cat sat down"]).value     # 0.25
    aeval.score("bleu", hyps, refs, tokenize="zh").signature
    aeval.score_audio("stoi", clean, denoised, 16000).value
    aeval.run(task="asr-quickstart", limit=20).summary["metrics"]["wer"]["value"]

Drop-in modules with the call shapes of popular libraries: aeval.jiwer, aeval.sacrebleu, aeval.pystoi.
The whole API: docs/python.md in the repository, aeval/data/python.md in an installed package (aeval.api_doc()).
"""
import os as _os
import sys as _sys
import tempfile as _tempfile
import threading as _threading
from dataclasses import dataclass as _dataclass
from pathlib import Path as _Path

# A wheel carries the registry (and what its entries point at) next to the package.
_bundled = _Path(__file__).parent / "data" / "registry"
if _bundled.is_dir() and not _os.environ.get("AEVAL_REGISTRY_DIR"):
    _os.environ["AEVAL_REGISTRY_DIR"] = str(_bundled)

from . import _metrics  # noqa: E402

__all__ = ["Result", "RunResult", "RunFailed", "api_doc", "metrics", "score", "score_audio", "score_embeddings", "dnsmos", "run"]


def api_doc():
    """The path of docs/python.md, the whole API: in the installed package, or in the repository beside the build."""
    for candidate in (_Path(__file__).parent / "data" / "python.md",
                      _Path(_os.environ.get("AEVAL_SOURCE_DIR", _Path(__file__).parents[3])) / "docs" / "python.md"):
        if candidate.is_file():
            return candidate
    return None


def _converted(part):
    """A Result's part (details, segments, parameters), made a Python object from the native result when first read."""
    slot = "_" + part

    def get(self):
        value = getattr(self, slot)
        if value is None:
            value = getattr(_metrics, "text_" + part)(self._native)
            setattr(self, slot, value)
        return value
    return get


class Result:
    """A metric's value, its details (hits, substitutions, precision, ... as `aeval score` prints them),
    the per-segment results for text metrics, and the signature where the reference defines one (BLEU, chrF).
    A text metric's details, segments and parameters become Python objects when first read."""
    __slots__ = ("_value", "_details", "_segments", "_parameters", "_native")

    def __init__(self, value, details, segments=None, parameters=None, _native=None):
        self._value, self._details, self._native = value, details, _native
        self._segments = [] if segments is None and _native is None else segments
        self._parameters = {} if parameters is None and _native is None else parameters

    @property
    def value(self):
        return self._value

    details = property(_converted("details"))
    segments = property(_converted("segments"))
    parameters = property(_converted("parameters"))

    @property
    def signature(self):
        return self.details.get("signature") if isinstance(self.details, dict) else None

    def __float__(self):
        return float(self.value)

    def __eq__(self, other):
        if not isinstance(other, Result):
            return NotImplemented
        return (self.value, self.details, self.segments, self.parameters) == \
            (other.value, other.details, other.segments, other.parameters)

    __hash__ = None

    def __repr__(self):
        return (f"Result(value={self.value!r}, details={self.details!r}, segments={self.segments!r}, "
                f"parameters={self.parameters!r})")


def metrics():
    """Every metric of `aeval score --list`: name, summary, reference, input, better, parameters."""
    return _metrics.list_metrics()


_NUMBER_METRICS = None


def _numbers(items):
    """A NumPy array, or a list of numbers (not of str): the statistics take these without a text round trip."""
    if type(items).__module__ == "numpy":
        return True
    return isinstance(items, (list, tuple)) and len(items) > 0 and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) for x in items)


def score(metric, hypotheses, references, **parameters):
    """A text metric over a corpus: hypotheses[i] against references[i] (a str, or a list of str).
    Parameters are the metric's own (`tokenize="zh"`, `max_ngram_order=4`, ...), as `aeval score` takes them.
    The statistics (pearson, spearman, kendall, kendall-c, roc-auc) also take NumPy arrays or lists of numbers:
    references = x (or labels), hypotheses = y (or scores)."""
    global _NUMBER_METRICS
    if _NUMBER_METRICS is None:
        _NUMBER_METRICS = {m["name"] for m in _metrics.list_metrics() if m["input"] == "numbers"}
    if metric in _NUMBER_METRICS and not parameters and (_numbers(hypotheses) or _numbers(references)):
        value, native = _metrics.score_numbers(metric, hypotheses, references)
    else:
        value, native = _metrics.score_text(metric, hypotheses, references, parameters)
    return Result(value, None, None, None, native)


def score_audio(metric, reference, degraded, sample_rate, *, trim=False, compare_rate=0):
    """A signal metric (stoi, estoi, si-sdr, si-snr, snr, mcd, mel-l1, msspec) of `degraded` against
    `reference`, both 1-D NumPy arrays at `sample_rate`; compare_rate: resample both first (0: keep)."""
    out = _metrics.score_audio(metric, reference, degraded, int(sample_rate), bool(trim), int(compare_rate))
    return Result(out["value"], out)


def score_embeddings(metric, a, b, *, p=106.0, lambda_=-3.5, float64=False):
    """audiobertscore (a: generated frames, b: reference frames), cosine (row by row) or fad (two sets)."""
    out = _metrics.score_embeddings(metric, a, b, float(p), float(lambda_), bool(float64))
    return Result(out["value"], out)


def dnsmos(samples, sample_rate, *, models=None, personalized=False, p808_features="librosa-0.8.1"):
    """DNSMOS of one clip (a 1-D NumPy array at `sample_rate`; other rates are resampled as the reference does):
    the `aeval score dnsmos` values as a Result, value = OVRL, details = SIG, BAK, OVRL, their raw values,
    P808_MOS and the number of windows. `models`: a folder of Microsoft's official ONNX files (default: the
    cache `aeval fetch model dnsmos` fills, or $DNSMOS_MODELS). The weights are loaded once per folder and options."""
    from . import _runs
    out = _runs.dnsmos(samples, int(sample_rate), "" if models is None else str(models), bool(personalized),
                       str(p808_features))
    return Result(out["OVRL"], out)


@_dataclass(frozen=True)
class RunResult:
    """A finished run: summary.json as a dict, and its folder (samples.jsonl, run.sqlite, ...)."""
    summary: dict
    run_dir: _Path
    samples_run: int
    cached_responses: int
    elapsed_seconds: float


class RunFailed(RuntimeError):
    """A run that finished with every sample failed, or more of them than max_fail_rate allows (where `aeval run`
    exits 3). `result` is its RunResult: its folder is written, and samples.jsonl names each error."""

    def __init__(self, message, result):
        super().__init__(message)
        self.result = result


_callables_lock = _threading.Lock()
_callable_registry = None


def _callable_entry(function, input_sample_rate, max_concurrency):
    """A registry folder entry naming a Python callable model, registered with the native module."""
    global _callable_registry
    from . import _runs
    with _callables_lock:
        if _callable_registry is None:
            _callable_registry = _tempfile.mkdtemp(prefix="aeval-python-models-")
            _os.makedirs(_os.path.join(_callable_registry, "models"))
        name = "python-" + getattr(function, "__name__", "model").replace("_", "-").lower()
        name = "".join(c if c.isalnum() or c in "-." else "-" for c in name)
        _runs.register_callable(name, function)
        with open(_os.path.join(_callable_registry, "models", name + ".yaml"), "w") as f:
            f.write(f"{name}:\n  class: python_callable\n  args:\n    input_sample_rate: {int(input_sample_rate)}\n"
                    f"    max_concurrency: {int(max_concurrency)}\n")
        return name, _callable_registry


def run(task=None, model=None, dataset=None, *, prompt=None, post_process=None, evaluators=None, aggregators=None,
        sets=(), registry=(), output="results", limit=0, jobs=0, cache=True, quiet=True, input_sample_rate=16000,
        max_concurrency=1, max_fail_rate=0.5):
    """Runs a task as `aeval run` does, with the same registry, response cache and output folder.

    model: a registry name, or a Python callable taking the request dict {"sample_id", "messages",
    "fields", "audio": [float32 arrays], "sample_rate"} and returning the answer (a str, or a dict with
    "text" and/or "scores"): a model under training, scored in-process without a server (its answers are
    never cached). sets: "NAME.ARG=VALUE" strings as --set; registry: extra registry folders.
    Raises RunFailed when every sample failed, or more than max_fail_rate of them (as `aeval run` exits 3);
    max_fail_rate=1 accepts any run with one sample answered."""
    from . import _runs
    registries = [str(r) for r in ([registry] if isinstance(registry, (str, _os.PathLike)) else registry)]
    if callable(model):
        model, folder = _callable_entry(model, input_sample_rate, max_concurrency)
        registries.append(folder)
    out = _runs.run(task, model, None if dataset is None else str(dataset), prompt, post_process, evaluators,
                    aggregators, list(sets), registries, str(output), int(limit), int(jobs), bool(cache),
                    bool(quiet), ["python"] + _sys.argv[:1])
    result = RunResult(out["summary"], _Path(out["run_dir"]), out["samples_run"], out["cached_responses"],
                       out["elapsed_seconds"])
    counts, fail_rate = result.summary["counts"], result.summary["fail_rate"]
    first = f"; the first: {out['first_error']}" if out["first_error"] else ""
    if counts["samples"] > 0 and counts["failed"] == counts["samples"]:
        raise RunFailed(f"every sample failed{first} ({result.run_dir / 'samples.jsonl'} names each error)", result)
    if fail_rate > max_fail_rate:
        raise RunFailed(f"fail_rate {fail_rate:.4f} exceeds max_fail_rate {max_fail_rate:.4f}{first}", result)
    return result
