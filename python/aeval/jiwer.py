"""jiwer's call shapes over aeval's exact WER: `from aeval import jiwer` then jiwer.wer(reference, hypothesis).

Each takes one str or a list of str per side, and applies jiwer 4's default transforms (words split on
whitespace, nothing else normalized), as aeval's `wer`/`cer` do.
"""
from . import score as _score


def _lists(reference, hypothesis):
    if isinstance(reference, str):
        reference = [reference]
    if isinstance(hypothesis, str):
        hypothesis = [hypothesis]
    return list(hypothesis), list(reference)


def _measures(reference, hypothesis, metric="wer"):
    hypotheses, references = _lists(reference, hypothesis)
    return _score(metric, hypotheses, references).details


def wer(reference, hypothesis):
    hypotheses, references = _lists(reference, hypothesis)
    return _score("wer", hypotheses, references).value


def mer(reference, hypothesis):
    return _measures(reference, hypothesis)["mer"]


def wil(reference, hypothesis):
    return _measures(reference, hypothesis)["wil"]


def wip(reference, hypothesis):
    return _measures(reference, hypothesis)["wip"]


def cer(reference, hypothesis):
    hypotheses, references = _lists(reference, hypothesis)
    return _score("cer", hypotheses, references).value
