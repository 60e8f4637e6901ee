#!/usr/bin/env python3
"""RELATE's and Baton's counts from their pinned release files, computed with Python's csv and json modules, beside
aeval's own count of the same files and beside AQAScore's Tables 3 and 29 (seed 003): for each printed pair accuracy,
whether it is a whole number of pairs (or a whole number and a half: a tie counted half) out of a candidate pair count
at the printed precision.

  bench/compare/pair_counts.py [DIR] [--aeval BUILD/aeval]
      DIR holds REL.csv, 2label_HA.json and 3label_HA.json (default: download the files the registry pins); every
      file's SHA-256 is checked. With --aeval, the files are put in a fresh cache as aeval's own downloads and
      `aeval fetch dataset` counts the samples of relate-test, relate-pairs (-as-worded), baton-*label and
      baton-*label-pairs.
"""
import csv, hashlib, io, json, os, re, subprocess, sys, tempfile, urllib.request
from collections import defaultdict
from itertools import combinations

FILES = {  # name: (pinned address, SHA-256, the registry entry that downloads it)
    "REL.csv": ("https://raw.githubusercontent.com/sarulab-speech/RELATE/05935d968f7c4029b8a235b82425c4d2919faf69/"
                "scores/REL.csv", "cea68d02735ac13a5cc3a05fafb4bc07a0342815c6a75fbf64284e39271c5dcd", "relate-test"),
    "2label_HA.json": ("https://raw.githubusercontent.com/Hannieliao/Baton/8bf8ec4e6e41bb6de16d140df604c0a8e8855ae0/"
                       "data/HA/2label_HA.json", "ed1bf90d9c74ba97f155c67b3d3f81c93ca49bf6c954ca8026301858284cf3a0",
                       "baton-2label"),
    "3label_HA.json": ("https://raw.githubusercontent.com/Hannieliao/Baton/8bf8ec4e6e41bb6de16d140df604c0a8e8855ae0/"
                       "data/HA/3label_HA.json", "4c0d5775f9030ed6c350145f90093642a9af31622b7a02d1674148d25f1513a0",
                       "baton-3label"),
}
SEED_003 = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "seeds",
                        "003_80a0e437ecb56797.txt")


def release(name, folder):
    url, sha256, _ = FILES[name]
    data = open(os.path.join(folder, name), "rb").read() if folder else urllib.request.urlopen(url).read()
    if hashlib.sha256(data).hexdigest() != sha256:
        sys.exit(name + ": not the pinned file (SHA-256 differs)")
    return data


def relate_counts(data):
    """The test split's clip-text pairs (ratings averaged); the pairs of one text's clips more than 2 apart, as the paper
    words it, of all clips and of the generated ones; and one text's generated clips whose summed ratings differ."""
    ratings = defaultdict(list)
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"))):
        if row["in RELATE dataset"] == "test":
            ratings[(row["wavname"], row["text"])].append(float(row["score"]))
    by_text = defaultdict(list)
    for (wav, text), scores in ratings.items():
        by_text[text].append((wav, sum(scores) / len(scores)))
    summed = {key: sum(scores) for key, scores in ratings.items()}
    pairs = synthetic = summed_apart = 0
    for text, clips in by_text.items():
        for (wa, a), (wb, b) in combinations(clips, 2):
            generated = not wa.startswith("/audiocaps/") and not wb.startswith("/audiocaps/")
            if abs(a - b) > 2:
                pairs += 1
                synthetic += generated
            summed_apart += generated and summed[(wa, text)] != summed[(wb, text)]
    return {"clip-text pairs": len(ratings), "texts": len(by_text), "pairs as worded": pairs,
            "of synthetic clips only": synthetic, "generated pairs whose summed ratings differ": summed_apart}


def baton_counts(data):
    """Clips, prompts, preferred and rejected clips, and every preferred clip of a prompt against every rejected one."""
    rows = [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]
    by_prompt = defaultdict(lambda: [0, 0])
    for row in rows:
        by_prompt[row["captions"]][row["feedback"]] += 1
    preferred = sum(p[1] for p in by_prompt.values())
    return {"clips": len(rows), "prompts": len(by_prompt), "preferred": preferred, "rejected": len(rows) - preferred,
            "pairs": sum(p[0] * p[1] for p in by_prompt.values())}


def aeval_counts(binary, folder_files):
    with tempfile.TemporaryDirectory() as cache:
        for name, data in folder_files.items():
            _, sha256, entry = FILES[name]
            where = os.path.join(cache, "aeval", "datasets", entry, "download", sha256[:16])
            os.makedirs(where)
            open(os.path.join(where, name), "wb").write(data)
        names = ["relate-test", "relate-pairs", "relate-pairs-as-worded", "baton-2label", "baton-3label",
                 "baton-2label-pairs", "baton-3label-pairs"]
        out = subprocess.run([binary, "fetch", "dataset", *names], env=dict(os.environ, XDG_CACHE_HOME=cache),
                             capture_output=True, text=True, check=True).stdout
    return {m[1]: int(m[2]) for m in re.finditer(r"^(\S+): (\d+) samples cached", out, re.M)}


def printed_accuracies():
    """The pair accuracies seed 003 prints: Table 3's RELATE-Pair and Baton-Pair columns (every method and model, to a
    tenth of a percent) and Table 29's RELATE-Pair column (AQAScore's nine templates for five judges, to a hundredth)."""
    lines = open(SEED_003, encoding="utf-8").read().split("\n")
    columns = {"Table 3 RELATE-Pair": [], "Table 3 Baton-Pair (2)": [], "Table 3 Baton-Pair (3)": [],
               "Table 29 RELATE-Pair": []}
    start = next(i for i, line in enumerate(lines) if line.startswith("Methods\tModels\tRELATE-Pair"))
    for line in lines[start + 2:]:
        if not line.strip() or line.startswith("Table 3:"):
            break
        values = [c for c in re.sub(r"</?u>|\*", "", line).split("\t")[2:] if c.strip()]
        for name, at in (("Table 3 RELATE-Pair", 0), ("Table 3 Baton-Pair (2)", 3), ("Table 3 Baton-Pair (3)", 4)):
            columns[name].append(values[at])
    caption = next(i for i, line in enumerate(lines) if line.startswith("Table 29:"))
    start = max(i for i in range(caption) if lines[i].startswith("Prompt Templates"))
    for line in lines[start + 1:caption]:
        values = [c for c in re.sub(r"</?i>", "", line).split("\t")[1:] if c.strip()]
        if len(values) == 4:
            columns["Table 29 RELATE-Pair"].append(values[3])
    return columns


def fits(printed, pairs, half):
    """Whether some k (or k + 1/2 with half) out of pairs rounds to the printed percentage."""
    step = 10 ** -len(printed.split(".")[1]) / 2 if "." in printed else 0.5
    target = float(printed)
    for k in range(pairs + 1):
        for extra in ((0, 0.5) if half else (0,)):
            if abs(100 * (k + extra) / pairs - target) <= step + 1e-9:
                return True
    return False


def main():
    args = sys.argv[1:]
    binary = None
    if "--aeval" in args:
        at = args.index("--aeval")
        binary = args[at + 1]
        del args[at:at + 2]
    folder = args[0] if args else None
    files = {name: release(name, folder) for name in FILES}
    relate = relate_counts(files["REL.csv"])
    baton = {n: baton_counts(files[f"{n}label_HA.json"]) for n in (2, 3)}
    print("RELATE (REL.csv, test split):", ", ".join(f"{k} {v:,}" for k, v in relate.items()))
    for n, counts in baton.items():
        print(f"Baton ({n} events):", ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    if binary:
        print("aeval fetch dataset:", ", ".join(f"{k} {v:,}" for k, v in aeval_counts(binary, files).items()))
    columns = printed_accuracies()
    relate_counts_ = [relate["pairs as worded"], relate["of synthetic clips only"],
                      relate["generated pairs whose summed ratings differ"], 418, 422]
    candidates = {"Table 3 RELATE-Pair": relate_counts_, "Table 29 RELATE-Pair": relate_counts_,
                  "Table 3 Baton-Pair (2)": [baton[2]["pairs"]], "Table 3 Baton-Pair (3)": [baton[3]["pairs"]]}
    print("\nHow many printed pair accuracies are k/N (and k/N or (k + 1/2)/N: a tie counted half); a value printed to "
          "d decimals of a percent fits a count chosen at random with probability N/10^(d+2)")
    for title, printed in columns.items():
        for pairs in candidates[title]:
            whole = sum(fits(v, pairs, False) for v in printed)
            halves = sum(fits(v, pairs, True) for v in printed)
            decimals = len(printed[0].split(".")[1])
            chance = min(1, pairs / 10 ** (decimals + 2))
            print(f"  {title} ({len(printed)} values) out of {pairs:,}: {whole} whole, {halves} with halves "
                  f"(by chance {chance:.0%} and {min(1, 2 * chance):.0%})")

if __name__ == "__main__":
    main()
