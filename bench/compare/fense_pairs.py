#!/usr/bin/env python3
"""FENSE's pair counts from its pinned annotation files, read as FENSE's own experiment code reads them
(experiment/dataloader.py, get_accuracy in main.py), beside AQAScore's Table 5 (seed 003): for each printed
accuracy, whether it is a whole number of pairs out of FENSE's untied pairs at the printed precision.

  bench/compare/fense_pairs.py [DIR]   DIR holds audiocaps_eval.json and clotho_eval.json (default: download the
                                       files the registry pins and check their SHA-256)
"""
import hashlib, json, os, re, sys, urllib.request

PINNED = "https://raw.githubusercontent.com/blmoistawinde/fense/2712460c70eed97d3ea13a795a49a4ccaf1e081c/dataset/"
SHA256 = {"audiocaps": "800d1cb95c04f71f9a6a04ece83fdc30559c8fc1e7b954b423ec83b10b4dd4f2",
          "clotho": "e166564a63c365ce580247ebe7ef20d2799307cb265d6e41e9313bd2a96c3938"}
KINDS = ["HC", "HI", "HM", "MM"]


def annotations(name, folder):
    if folder:
        data = open(os.path.join(folder, name + "_eval.json"), "rb").read()
    else:
        data = urllib.request.urlopen(PINNED + name + "_eval.json").read()
    if hashlib.sha256(data).hexdigest() != SHA256[name]:
        sys.exit(name + "_eval.json: not the pinned file (SHA-256 differs)")
    return json.loads(data)


def counts(clips):
    untied, all_pairs = dict.fromkeys(KINDS, 0), dict.fromkeys(KINDS, 0)
    for clip in clips:
        for facet in ["HC", "HI", "HM", "MM_1", "MM_2", "MM_3", "MM_4", "MM_5"]:
            try:
                truth = sum(clip[facet][-1])
            except (KeyError, TypeError):
                continue
            kind = facet.split("_")[0]
            all_pairs[kind] += 1
            untied[kind] += truth != 0
    untied["All"], all_pairs["All"] = sum(untied.values()), sum(all_pairs.values())
    return untied, all_pairs


def table5(paper):
    """Table 5's rows: (method, model, ten values), from the paper's text."""
    lines = open(paper, encoding="utf-8").read().splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("Methods\tModels\tAudioCaps-Eval"))
    rows, method = [], ""
    for line in lines[start + 2:]:
        if line.startswith("Table 5:") or not line.strip():
            break
        cells = [re.sub(r"</?u>|\*", "", c).strip() for c in line.split("\t")]
        if cells[0]:
            method = cells[0]
        rows.append((method, cells[1], [float(v) for v in cells[2:12]]))
    return rows


def whole(value, n):
    return any(abs(k * 100 / n - value) <= 0.05 + 1e-9 for k in range(n + 1))


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else ""
    paper = os.path.join(os.path.dirname(__file__), "../../../shared/seeds/003_80a0e437ecb56797.txt")
    columns = {}
    for name in ["audiocaps", "clotho"]:
        clips = annotations(name, folder)
        untied, all_pairs = counts(clips)
        print(f"{name}: {len(clips)} clips, pairs {all_pairs}, untied {untied}")
        columns[name] = untied
    rows = table5(paper)
    for offset, name in [(0, "audiocaps"), (5, "clotho")]:
        fit = total = 0
        for method, model, values in rows:
            marks = []
            for k, kind in enumerate(KINDS + ["All"]):
                ok = whole(values[offset + k], columns[name][kind])
                fit, total = fit + ok, total + 1
                marks.append(f"{values[offset + k]:5.1f}{'' if ok else '*'}")
            print(f"  {name:9s} {method:9s} {model:17s} " + " ".join(marks))
        print(f"{name}: {fit} of {total} printed values are k/N of the untied pairs (* where not)")


if __name__ == "__main__":
    main()
