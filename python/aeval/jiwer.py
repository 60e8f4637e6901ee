"""jiwer's call shapes over aeval's exact WER: `from aeval import jiwer` then jiwer.wer(reference, hypothesis).

Each takes one str or a list of str per side, and applies jiwer 4's default transforms (words split on
whitespace, nothing else normalized), as aeval's `wer`/`cer` do.
"""
from . import score as _score


def _result(reference, hypothesis, metric="wer"):
    hypotheses = [hypothesis] if isinstance(hypothesis, str) else list(hypothesis)
    references = [reference] if isinstance(reference, str) else list(reference)
    return _score(metric, hypotheses, references)


def wer(reference, hypothesis):
    return _result(reference, hypothesis).value


def mer(reference, hypothesis):
    return _result(reference, hypothesis).details["mer"]


def wil(reference, hypothesis):
    return _result(reference, hypothesis).details["wil"]


def wip(reference, hypothesis):
    return _result(reference, hypothesis).details["wip"]


def cer(reference, hypothesis):
    return _result(reference, hypothesis, "cer").value
