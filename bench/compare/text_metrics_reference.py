#!/usr/bin/python3
"""Times the Python references Debian ships on the same inputs as
aeval_bench_text (NLTK 3.8, SciPy 1.10, scikit-learn 1.2). Prints JSON."""
import json
import os
import sys
import tempfile
import time
import warnings


def debian_wordnet():
    """NLTK's reader of Debian's WordNet 3.0 (wordnet-base), through a folder with the lexnames file NLTK expects."""
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    folder = tempfile.mkdtemp()
    for name in os.listdir("/usr/share/wordnet"):
        os.symlink(os.path.join("/usr/share/wordnet", name), os.path.join(folder, name))
    with open(os.path.join(folder, "lexnames"), "w") as f:
        for i in range(45):
            f.write("%02d\tlexfile%02d\t0\n" % (i, i))
    return WordNetCorpusReader(folder, None)


def main():
    captions, asr = [], []
    with open(sys.argv[1]) as f:
        for line in f:
            r = json.loads(line)
            pair = (r["input"]["hypothesis"], r["input"]["references"])
            (asr if "asterisk:" in r["id"] else captions).append(pair)
    captions = [captions[i % len(captions)] for i in range(10000)]
    asr = [asr[i % len(asr)] for i in range(2600)]
    warnings.simplefilter("ignore")
    out = {}

    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
    method1 = SmoothingFunction().method1
    start = time.perf_counter()
    for hyp, refs in captions:
        sentence_bleu([r.lower().split() for r in refs], hyp.lower().split(), smoothing_function=method1)
    out["nltk_bleu4_captions"] = time.perf_counter() - start

    from nltk.translate.meteor_score import meteor_score
    wordnet = debian_wordnet()
    meteor_score([["warm", "up"]], ["warm", "up"], wordnet=wordnet)  # loading is not timed
    start = time.perf_counter()
    for hyp, refs in captions:
        meteor_score([r.lower().split() for r in refs], hyp.lower().split(), wordnet=wordnet)
    out["meteor_captions"] = time.perf_counter() - start

    from nltk.stem.porter import PorterStemmer
    stemmer = PorterStemmer()
    start = time.perf_counter()
    for hyp, _ in captions:
        for w in hyp.lower().split():
            stemmer.stem(w)
    out["porter_captions"] = time.perf_counter() - start

    from scipy import stats
    from sklearn.metrics import roc_auc_score
    x = [len(h) % 97 + 0.001 * i for i, (h, _) in enumerate(captions)]
    y = [len(r[0]) % 89 for _, r in captions]
    labels = [int(i % 3 == 0) for i in range(len(captions))]
    start = time.perf_counter()
    stats.pearsonr(x, y), stats.spearmanr(x, y), stats.kendalltau(x, y), roc_auc_score(labels, x)
    out["pearson_spearman_kendall_auc_10k"] = time.perf_counter() - start
    print(json.dumps(out))


if __name__ == "__main__":
    main()
