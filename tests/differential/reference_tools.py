#!/usr/bin/python3
"""Runs Debian's reference implementations (NLTK 3.8, SciPy 1.10, scikit-learn 1.2)
on the cases aeval's differential tests generate: reads a JSON request file,
writes a JSON answer file. Used only by tests/differential/*_test.cpp."""
import json
import math
import os
import sys
import tempfile


def wordnet_reader():
    # Debian's wordnet-base lacks the 'lexnames' file NLTK opens at start-up.
    # Its 45 entries only name Synset.lexname(), which METEOR never calls, so
    # placeholder names do.
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    folder = tempfile.mkdtemp(prefix="aeval-wordnet-")
    source = os.environ.get("AEVAL_WORDNET_DIR", "/usr/share/wordnet")
    for name in os.listdir(source):
        os.symlink(os.path.join(source, name), os.path.join(folder, name))
    with open(os.path.join(folder, "lexnames"), "w") as f:
        for i in range(45):
            f.write("%02d\tlexfile%02d\t0\n" % (i, i))
    return WordNetCorpusReader(folder, None)


def module_from_file(name, path):
    """A publisher's Python file given by path, imported as a module."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def number(value):
    if isinstance(value, float) and math.isnan(value):
        return "NaN"
    return value


def answer(kind, cases):
    if kind == "nltk_bleu":
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
        method1 = SmoothingFunction().method1
        return [sentence_bleu(c["refs"], c["hyp"], weights=tuple(c["weights"]),
                              smoothing_function=method1 if c["method1"] else None) for c in cases]
    if kind == "meteor":
        from nltk.translate.meteor_score import meteor_score
        wordnet = wordnet_reader()
        return [meteor_score(c["refs"], c["hyp"], wordnet=wordnet) for c in cases]
    if kind == "porter":
        from nltk.stem.porter import PorterStemmer
        modes = [PorterStemmer(m) for m in (PorterStemmer.NLTK_EXTENSIONS, PorterStemmer.MARTIN_EXTENSIONS,
                                            PorterStemmer.ORIGINAL_ALGORITHM)]
        return [[m.stem(w) for m in modes] for w in cases]
    if kind == "stats":
        import warnings
        from scipy import stats
        from sklearn.metrics import roc_auc_score
        warnings.simplefilter("ignore")
        out = []
        for c in cases:
            x, y = c["x"], c["y"]
            row = {}
            for name, fn in (("pearson", stats.pearsonr), ("spearman", stats.spearmanr),
                             ("kendall_b", lambda a, b: stats.kendalltau(a, b, variant="b")),
                             ("kendall_c", lambda a, b: stats.kendalltau(a, b, variant="c"))):
                r = fn(x, y)
                row[name] = [number(float(r[0])), number(float(r[1]))]
            row["auc"] = number(float(roc_auc_score(c["labels"], x)))
            out.append(row)
        return out
    if kind == "meta_evaluation":
        # Judges judged against people, from (system, human, group, label) rows: the
        # correlations, pairs of one group whose human scores differ by more than
        # min_difference (right when the system scores the preferred one higher, a tie
        # counting tie_credit), and ROC-AUC against the binary labels.
        import itertools
        import warnings
        from scipy import stats
        from sklearn.metrics import roc_auc_score
        warnings.simplefilter("ignore")
        out = []
        for c in cases:
            rows = c["rows"]
            x = [r["system"] for r in rows]
            y = [r["human"] for r in rows]
            right = total = 0
            for a, b in itertools.combinations(rows, 2):
                if a["group"] == b["group"] and abs(a["human"] - b["human"]) > c["min_difference"]:
                    better, worse = (a, b) if a["human"] > b["human"] else (b, a)
                    total += 1
                    right += 1 if better["system"] > worse["system"] else c.get("tie_credit", 0) if better["system"] == worse["system"] else 0
            out.append({"pearson": float(stats.pearsonr(x, y)[0]),
                        "spearman": float(stats.spearmanr(x, y)[0]),
                        "kendall": float(stats.kendalltau(x, y)[0]),
                        "pairs": total, "pairwise_accuracy": right / total if total else None,
                        "roc_auc": float(roc_auc_score([r["label"] for r in rows], x))})
        return out
    if kind == "rated_csv":
        # RELATE as AQAScore reads it, with the csv module: the split's rows, ratings
        # averaged per clip and text; then the judge's scores (by "clip|text") against them.
        # RELATE-Pair's pairs as they give the paper's 420: one text's generated clips (not
        # AudioCaps'), their ratings summed, every two whose sums differ.
        import csv
        cases_out = []
        for c in cases:
            ratings = {}
            with open(c["csv"], newline="") as f:
                for row in csv.DictReader(f):
                    if row["in RELATE dataset"] == c["split"]:
                        key = row["wavname"].lstrip("/") + "|" + row["text"]
                        ratings.setdefault(key, []).append(float(row["score"]))
            rows = [{"system": c["scores"][k], "human": sum(v) / len(v), "group": k.split("|", 1)[1], "label": 0}
                    for k, v in ratings.items()]
            rows[0]["label"] = 1  # roc_auc needs two classes; unused here
            out = answer("meta_evaluation", [{"rows": rows, "min_difference": 2}])[0]
            generated = [{"system": c["scores"][k], "human": sum(v), "group": k.split("|", 1)[1], "label": i % 2}
                         for i, (k, v) in enumerate(ratings.items()) if not k.startswith("audiocaps/")]
            paired = answer("meta_evaluation", [{"rows": generated, "min_difference": 0}])[0]
            out["pairs"], out["pairwise_accuracy"] = paired["pairs"], paired["pairwise_accuracy"]
            out["clips"] = len(rows)
            out["means"] = {k: sum(v) / len(v) for k, v in ratings.items()}
            cases_out.append(out)
        return cases_out
    if kind == "feedback_jsonl":
        # Baton as AQAScore reads it: JSON lines of captions and 0/1 feedback; the judge's
        # scores by line number; ROC-AUC over all clips, pairs of one caption's clips.
        out = []
        for c in cases:
            with open(c["jsonl"]) as f:
                lines = [json.loads(line) for line in f if line.strip()]
            rows = [{"system": c["scores"][str(i + 1)], "human": r["feedback"], "group": r["captions"],
                     "label": r["feedback"]} for i, r in enumerate(lines)]
            out.append(answer("meta_evaluation", [{"rows": rows, "min_difference": 0}])[0])
        return out
    if kind == "pam_csv":
        # PAM's scores.csv with the csv module: a row per clip (Model/File Name.wav), REL its rating.
        import csv
        out = []
        for c in cases:
            with open(c["csv"], newline="") as f:
                rows = list(csv.DictReader(f))
            meta = [{"system": c["scores"]["%s/%s.wav|%s" % (r["Model"], r["File Name"], r["Text"])],
                     "human": float(r["REL"]), "group": r["Text"], "label": i % 2} for i, r in enumerate(rows)]
            out.append(answer("meta_evaluation", [{"rows": meta, "min_difference": 2}])[0])
        return out
    if kind == "compa":
        # CompA's benchmark_eval.py on similarities s(caption, clip): f (text), g (audio), h (group) per item.
        import csv
        out = []
        for c in cases:
            with open(c["csv"], newline="") as f:
                rows = list(csv.reader(f))
            text = audio = group = 0
            for n, _ in enumerate(rows[1:], start=1):
                s = {(t, a): c["scores"]["%d:clip%d-caption%d" % (n, a + 1, t + 1)] for t in (0, 1) for a in (0, 1)}
                f_ = s[0, 0] > s[1, 0] and s[1, 1] > s[0, 1]
                g_ = s[0, 0] > s[0, 1] and s[1, 1] > s[1, 0]
                text, audio, group = text + f_, audio + g_, group + (f_ and g_)
            items = len(rows) - 1
            out.append({"text": text / items, "audio": audio / items, "group": group / items, "items": items})
        return out
    if kind == "fense_json":
        # FENSE's own reading and accuracy (experiment/dataloader.py, main.py get_accuracy), with the json module: per
        # pair the human truth is the votes' sum (the last element), a kind a clip lacks (or holds null) skipped; the
        # machine score is the judge's preference for the first caption minus 0.5; right when the two agree in sign,
        # out of the pairs whose truth is not 0. Pairs are keyed as aeval names them: FILE:KIND.
        out = []
        for c in cases:
            with open(c["json"]) as f:
                clips = json.load(f)
            machine, human, kinds = [], [], []
            for clip in clips:
                name = clip.get("raw_name") or clip["audio_id"] + ".wav"
                for facet in ["HC", "HI", "HM", "MM_1", "MM_2", "MM_3", "MM_4", "MM_5"]:
                    try:
                        truth = sum(clip[facet][-1])
                    except (KeyError, TypeError):
                        continue
                    key = name + ":" + facet
                    machine.append(c["scores"][key] - 0.5 if key in c["scores"] else 0.0)
                    human.append(truth)
                    kinds.append(facet.split("_")[0])

            def accuracy(ms, hs):
                n = sum(1 for h in hs if h != 0)
                return sum(1 for m, h in zip(ms, hs) if m * h > 0) / n

            result = {"All": accuracy(machine, human), "pairs": sum(1 for h in human if h != 0)}
            for kind_ in ["HC", "HI", "HM", "MM"]:
                picked = [i for i, k in enumerate(kinds) if k == kind_]
                result[kind_] = accuracy([machine[i] for i in picked], [human[i] for i in picked])
            out.append(result)
        return out
    if kind == "brace_json":
        # BRACE's own reading (src/data.py, BRACE_Dataset) with the json module: Main takes every member but
        # file_name and references as a pair, its answer caption 0 when the scores' sum is positive, caption 1 when
        # negative, a tie otherwise; Hallu takes the members whose name holds "caption", its answer caption 0 when
        # that caption's type is human. The judge picks caption 0 when its preference for it is at least 0.5; a pair
        # is right when the pick is the answer, out of the untied pairs; Main's kinds by what the member's name holds,
        # as the evaluation scripts that read this layout count them. Pairs are keyed as aeval names them: FILE:MEMBER.
        out = []
        for c in cases:
            with open(c["json"]) as f:
                clips = json.load(f)
            right, total = {}, {}
            for clip in clips:
                for key, value in clip.items():
                    if c["type"] == "Main":
                        if key in ("file_name", "references"):
                            continue
                        score = sum(value[-1])
                        truth = 0 if score > 0 else (1 if score < 0 else "tie")
                    else:
                        if "caption" not in key:
                            continue
                        truth = 0 if value[2] == "human" else 1
                    if truth == "tie":
                        continue
                    pick = 0 if c["scores"][clip["file_name"] + ":" + key] >= 0.5 else 1
                    kinds = ["All"] + [k for k, name in (("HH", "Human-Human"), ("HM", "Human-Machine"),
                                                         ("MM", "Machine-Machine")) if name in key]
                    for k in kinds:
                        total[k] = total.get(k, 0) + 1
                        right[k] = right.get(k, 0) + (pick == truth)
            out.append({k: right[k] / total[k] for k in total} | {"pairs": total["All"]})
        return out
    if kind == "rubric_bench":
        # AnyAudio-Judge Bench rows: a row is a match when each of its questions has p(yes) >= 0.5 (holistic:
        # its one question); accuracy per subset and their unweighted mean; rows without questions are not judged.
        # Generate mode (evaluate_benchmark.py): the row's answers, a JSON list of {id, answer} (in code fences or
        # not), read with the json module; a match when yes answers are at least 0.8 of the yes and no answers.
        out = []
        for c in cases:
            right, judged = {}, {}
            for row in c["rows"]:
                if c.get("holistic"):  # one question a row, every row
                    yes = c["scores"][row["uuid"]] >= 0.5
                elif row["questions"] == 0:
                    continue
                elif "answers" in c:
                    text = c["answers"][row["uuid"]]
                    said = [a["answer"] for a in json.loads(text[text.index("["):text.rindex("]") + 1])
                            if a["id"] < row["questions"] and a["answer"] in ("yes", "no")]
                    yes = said.count("yes") / len(said) >= 0.8
                else:
                    yes = all(c["scores"]["%s:%d" % (row["uuid"], k)] >= 0.5 for k in range(1, row["questions"] + 1))
                subset = row["subset"]
                right[subset] = right.get(subset, 0) + (yes == (row["label"] == "yes"))
                judged[subset] = judged.get(subset, 0) + 1
            per_subset = {s: right[s] / judged[s] for s in judged}
            out.append({"per_subset": per_subset, "average": sum(per_subset.values()) / len(per_subset),
                        "rows": sum(judged.values())})
        return out
    if kind == "audiocapbench":
        # AudioCapBench's builder (build_dataset.py) on the rows its Hub datasets hold, then its
        # evaluation script's instruction per position, clean-up of the predictions and fallback metrics.
        import ast
        import csv
        import re
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu
        from nltk.translate.meteor_score import meteor_score
        wordnet = wordnet_reader()
        out = []
        for c in cases:
            tree = ast.parse(open(c["instructions_py"]).read())
            instructions = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
                                and n.targets[0].id == "CATEGORY_INSTRUCTIONS")
            samples = []
            for name, category, key in (("clotho", "sound", "audio_name"), ("audiocaps", "sound", "youtube_id"),
                                        ("musiccaps", "music", "ytid"), ("speech", "speech", "transcript")):
                with open(c["lists"][name], newline="") as f:
                    listed = [r.get(key, "").strip() for r in csv.DictReader(f)]
                chosen = [i for i in listed if i][:c["counts"][name]]
                clips = {}
                for row in c["rows"][name]:
                    rid = (row.get("youtube_id") or row.get("file_name", "")) if name == "audiocaps" else row[key]
                    if rid not in chosen:
                        continue
                    if name == "musiccaps":
                        refs = [row["caption"]] if row["caption"] else []
                        if row["aspect_list"]:
                            a = row["aspect_list"]
                            v = ast.literal_eval(a) if a.startswith("[") else a
                            refs.append(", ".join(v) if isinstance(v, list) else str(v))
                        clips[rid] = refs
                    elif name == "speech":
                        if rid not in clips:
                            clips[rid] = ([row["caption"]] if row["caption"] else []) + [
                                '%s The speaker says: "%s"' % (row["caption"], rid)]
                    else:
                        clips.setdefault(rid, [])
                        if name == "audiocaps" or row["caption"]:
                            clips[rid].append(row["caption"])
                for i, rid in enumerate(chosen):
                    if rid in clips:
                        samples.append({"id": "%s_%d" % (name, i), "category": category,
                                        "captions": clips[rid] or [""]})
            bleu, meteor = [], []
            for position, s in enumerate(samples):
                s["instruction"] = instructions[s["category"]][position % len(instructions[s["category"]])]
                p = re.sub(r"!\[[^\]]*\]\([^)]+\)|\[[^\]]*\]\([^)]+\)", "", c["predictions"][s["id"]])
                p = re.sub(r"https?://\S+|www\.\S+", "", p, flags=re.IGNORECASE)
                p = re.sub(r"\n{3,}", "\n\n", p).strip()
                s["prediction"] = p
                refs = [r.lower().split() for r in s["captions"]]
                bleu.append(sentence_bleu(refs, p.lower().split(), smoothing_function=SmoothingFunction().method1))
                meteor.append(max(meteor_score([r], p.lower().split(), wordnet=wordnet) for r in refs))
            out.append({"samples": samples, "bleu_4": sum(bleu) / len(bleu), "meteor": sum(meteor) / len(meteor)})
        return out
    if kind == "audiocapbench_judge_prompt":
        # The prompt AudioCapBench's evaluate_with_llm_judge sends, from the metrics.py it is given: a client that
        # keeps the messages and refuses to answer (the function reports that and returns).
        import contextlib
        import io
        out = []
        for c in cases:
            module = module_from_file("audiocapbench_metrics", c["file"])
            sent = []

            class Completions:
                @staticmethod
                def create(**request):
                    sent.append(request["messages"])
                    raise RuntimeError("not answered")

            class Client:
                class chat:
                    completions = Completions

            with contextlib.redirect_stdout(io.StringIO()):
                module.evaluate_with_llm_judge(c["prediction"], c["references"], c["category"], Client, "judge",
                                               c["transcript"])
            out.append(sent[0])
        return out
    if kind == "anyaudio_judge_prompt":
        # The messages AnyAudio-Judge sends at each stage, from the prompts.py it is given (its constants and
        # builders, called here) and decompose.py (call_text's /no_think marker, read with Python's ast: the
        # function itself imports torch). judge.py's message lists are written as it writes them.
        import ast
        out = []
        for c in cases:
            p = module_from_file("anyaudio_prompts", c["prompts"])
            stage, caption, items = c["stage"], c["text"], c["items"]
            if stage == "decompose":
                with open(c["decompose"]) as f:
                    tree = ast.parse(f.read())
                marker = next(n.value.left.value for n in ast.walk(tree)
                              if isinstance(n, ast.Assign) and isinstance(n.value, ast.BinOp)
                              and getattr(n.targets[0], "id", "") == "user_content")
                cfg = p.DECOMPOSE_PROMPTS[c["subset"]]
                out.append([{"role": "system", "content": cfg["system_prompt"]},
                            {"role": "user", "content": marker + cfg["user_prefix"] + caption}])
            elif stage == "clean":
                out.append([{"role": "system", "content": p.CLEAN_SYSTEM_PROMPT},
                            {"role": "user", "content": p.build_clean_user_text(caption, items)}])
            elif stage == "judge":
                out.append([{"role": "system", "content": p.JUDGE_LOGITS_SYSTEM_PROMPT},
                            {"role": "user", "content": p.build_logits_user_text(items[0])}])
            else:
                out.append([{"role": "system", "content": p.JUDGE_GENERATE_SYSTEM_PROMPT},
                            {"role": "user", "content": p.build_generate_user_text(items)}])
        return out
    raise ValueError("unknown kind " + kind)


def main():
    with open(sys.argv[1]) as f:
        request = json.load(f)
    with open(sys.argv[2], "w") as f:
        json.dump(answer(request["kind"], request["cases"]), f)


if __name__ == "__main__":
    main()
