"""sacreBLEU's call shapes over aeval's exact BLEU and chrF: `from aeval import sacrebleu`.

    sacrebleu.corpus_bleu(hypotheses, [references_1, references_2], tokenize="13a").score
    sacrebleu.corpus_chrf(hypotheses, [references]).score

As in sacreBLEU, references come as streams: one list per reference set, each as long as the hypotheses.
"""
from dataclasses import dataclass, field

from . import score as _score


@dataclass(frozen=True)
class Score:
    score: float
    signature: str = ""
    details: dict = field(default_factory=dict)

    def __str__(self):
        return f"{self.signature} = {self.score:.2f}" if self.signature else f"{self.score:.2f}"


def _segments(hypotheses, references):
    hypotheses = list(hypotheses)
    streams = [list(stream) for stream in references]
    for stream in streams:
        if len(stream) != len(hypotheses):
            raise ValueError("each reference stream must be as long as the hypotheses "
                             f"({len(stream)} and {len(hypotheses)})")
    return hypotheses, [[stream[i] for stream in streams] for i in range(len(hypotheses))]


def corpus_bleu(hypotheses, references, **parameters):
    hypotheses, refs = _segments(hypotheses, references)
    r = _score("bleu", hypotheses, refs, **parameters)
    return Score(r.value, r.signature or "", r.details)


def corpus_chrf(hypotheses, references, **parameters):
    hypotheses, refs = _segments(hypotheses, references)
    r = _score("chrf", hypotheses, refs, **parameters)
    return Score(r.value, r.signature or "", r.details)
