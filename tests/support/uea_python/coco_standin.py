"""Writes stand-ins for pycocotools and pycocoevalcap into OUT, for tests that run UltraEval-Audio's Coco
aggregation (audio_evals/lib/coco.py) under UEA's own main.py and under aeval: the real ones need Java (the PTB
tokenizer, METEOR, SPICE) and PyPI, which this machine lacks. They compute simple, deterministic numbers from
what UEA passes them (a token overlap, not the COCO metrics), and METEOR raises as a missing Java would, so both
runs must take the same path through UEA's code to agree. Put OUT first on PYTHONPATH.

    python3 coco_standin.py OUT
"""
import os
import sys

FILES = {
    "pycocotools/__init__.py": "",
    "pycocotools/coco.py": '''import json


class COCO:
    def __init__(self, path=None):
        self.imgToAnns = {}
        self.images = []
        if path:
            data = json.load(open(path))
            self.images = [image["id"] for image in data["images"]]
            for annotation in data["annotations"]:
                self.imgToAnns.setdefault(annotation["image_id"], []).append(annotation)

    def getImgIds(self):
        return list(self.images)

    def loadRes(self, path):
        result = COCO()
        for annotation in json.load(open(path)):
            result.imgToAnns.setdefault(annotation["image_id"], []).append(annotation)
        result.images = list(result.imgToAnns)
        return result
''',
    "pycocoevalcap/__init__.py": "",
    "pycocoevalcap/tokenizer/__init__.py": "",
    "pycocoevalcap/tokenizer/ptbtokenizer.py": '''class PTBTokenizer:
    def tokenize(self, captions):
        return {key: [" ".join(a["caption"].lower().replace(".", " ").replace(",", " ").split()) for a in value]
                for key, value in captions.items()}
''',
    "pycocoevalcap/overlap.py": '''def overlap(gts, res, order):
    """Per clip: the share of the prediction's n-grams (n = order) found in any of its references."""
    scores = []
    for key in sorted(gts):
        words = res[key][0].split()
        grams = [tuple(words[i:i + order]) for i in range(len(words) - order + 1)]
        found = set()
        for ref in gts[key]:
            r = ref.split()
            found |= {tuple(r[i:i + order]) for i in range(len(r) - order + 1)}
        scores.append(sum(g in found for g in grams) / len(grams) if grams else 0.0)
    return sum(scores) / len(scores), scores
''',
    "pycocoevalcap/bleu/__init__.py": "",
    "pycocoevalcap/bleu/bleu.py": '''from pycocoevalcap.overlap import overlap


class Bleu:
    def __init__(self, n=4):
        self.n = n

    def method(self):
        return "Bleu"

    def compute_score(self, gts, res):
        pairs = [overlap(gts, res, k + 1) for k in range(self.n)]
        return [p[0] for p in pairs], [p[1] for p in pairs]
''',
    "pycocoevalcap/meteor/__init__.py": "",
    "pycocoevalcap/meteor/meteor.py": '''class Meteor:
    def method(self):
        return "METEOR"

    def compute_score(self, gts, res):
        raise FileNotFoundError("java: not found (a stand-in for METEOR 1.5's jar)")
''',
    "pycocoevalcap/rouge/__init__.py": "",
    "pycocoevalcap/rouge/rouge.py": '''from pycocoevalcap.overlap import overlap


class Rouge:
    def method(self):
        return "Rouge"

    def compute_score(self, gts, res):
        return overlap(gts, res, 1)[0] / 2, []
''',
    "pycocoevalcap/cider/__init__.py": "",
    "pycocoevalcap/cider/cider.py": '''from pycocoevalcap.overlap import overlap


class Cider:
    def method(self):
        return "CIDEr"

    def compute_score(self, gts, res):
        return overlap(gts, res, 2)[0] * 3, []
''',
    "pycocoevalcap/spice/__init__.py": "",
    "pycocoevalcap/spice/spice.py": '''from pycocoevalcap.overlap import overlap


class Spice:
    def method(self):
        return "SPICE"

    def compute_score(self, gts, res):
        return overlap(gts, res, 3)[0], []
''',
}


def main():
    out = sys.argv[1]
    for name, text in FILES.items():
        path = os.path.join(out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
