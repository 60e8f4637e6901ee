#!/usr/bin/python3
"""Golden vectors for aeval's UltraEval-Audio text pieces (tests/data/uea_text).

Every expected value is computed here by the reference implementation itself,
loaded from a file named on the command line (no reference code lives in aeval):
  * cn_tn.jsonl      -- cn_tn.py TextNorm, constructed exactly as UltraEval-Audio's
                        audio_evals/lib/wer.py does (every option off, cc_mode=""),
                        plus its num2chn on a list of numbers
  * ja_mecab.jsonl   -- sacreBLEU's TokenizerJaMecab()(line) (tokenizer_ja_mecab.py)
                        through Debian's python3-mecab, with IPAdic as released
                        (392126 entries) and with Debian's compiled IPAdic
  * opencc_cli.jsonl -- Debian's `opencc` command-line tool (a plumbing check of
                        aeval's OpenCC calls, NOT a zhconv reference)
Inputs: AISHELL-1 transcripts and their synthetic ASR hypotheses from
shared/reference, the hand-written sentences in inputs/, and the same texts
after aeval's EnglishTextNormalizer (UltraEval-Audio's compute_wer applies
Whisper's English normalizer to every language first). See README.md.
"""
import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# Stand-ins for what the reference files import but never call (no reference code):
# sacreBLEU's tokenizer base classes, and the PyPI `ipadic` package's locator.
SHIM_BASE_2X = "class BaseTokenizer:\n    pass\n"        # sacrebleu/tokenizers/tokenizer_base.py
SHIM_BASE_15 = "class NoneTokenizer:\n    pass\n"        # sacrebleu 1.5 tokenizers/tokenizer_none.py
# polm/ipadic-py ipadic/ipadic.py builds MECAB_ARGS = '-r "<dicdir>/mecabrc" -d "<dicdir>"'.
# Debian's libmecab 0.996 splits its argument string on blanks and does not understand
# the quotes (the MeCab inside mecab-python3 >= 1.0 does), so the shim passes the same
# two options unquoted; the paths hold no blanks. The resource file is empty.
SHIM_IPADIC = ("import os\nDICDIR = os.environ['UEA_IPADIC_DICDIR']\n"
               "MECAB_ARGS = '-r {} -d {}'.format(os.environ['UEA_IPADIC_MECABRC'], DICDIR)\n")


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f if l.rstrip("\n")]


def unique(items):
    seen, out = set(), []
    for item in items:
        if item[1] not in seen:
            seen.add(item[1])
            out.append(item)
    return out


def call(function, *args, **kwargs):
    """The value, or {"error": "<ExceptionType>: <message>"} when the reference raises."""
    try:
        return function(*args, **kwargs)
    except Exception as e:  # recorded, as in shared/reference
        return {"error": f"{type(e).__name__}: {e}"}


def aishell_inputs(reference_dir):
    items = []
    with open(os.path.join(reference_dir, "jiwer.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if not r["id"].startswith("jiwer/zh-pair/") or r.get("variant") != "raw":
                continue
            item = r["id"].split("/")[2]
            items.append((f"aishell/{item}/ref", r["input"]["reference"],
                          {"source": "shared/reference/jiwer.jsonl", "record": r["id"], "field": "input.reference"}))
            items.append((f"aishell/{item}/hyp", r["input"]["hypothesis"],
                          {"source": "shared/reference/jiwer.jsonl", "record": r["id"], "field": "input.hypothesis"}))
    with open(os.path.join(reference_dir, "sacrebleu.jsonl"), encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if "zh-mixed" not in r["id"] or r.get("kind") != "sentence":
                continue
            name = r["id"].split("/")[-1]
            items.append((f"zh-mixed/{name}/hyp", r["input"]["hypothesis"],
                          {"source": "shared/reference/sacrebleu.jsonl", "record": r["id"], "field": "input.hypothesis"}))
            for k, ref in enumerate(r["input"]["references"]):
                items.append((f"zh-mixed/{name}/ref{k}", ref,
                              {"source": "shared/reference/sacrebleu.jsonl", "record": r["id"],
                               "field": f"input.references[{k}]"}))
    return unique(items)


def whisper_english(tool, texts):
    """aeval's EnglishTextNormalizer (the conformance-tested port of whisper c0d2f62) on each
    text, as compute_wer applies it before TextNorm / zhconv / MeCab. Inputs only."""
    out = subprocess.run([tool], input="\n".join(texts) + "\n", capture_output=True, text=True, check=True)
    rows = json.loads(out.stdout)
    assert [r["input"] for r in rows] == texts
    return [r["output"] for r in rows]


WHISPER_NOTE = "aeval EnglishTextNormalizer (whisper c0d2f62 port), empty spelling table"


def number_strings():
    rng = random.Random(20240601)
    numbers = [str(n) for n in range(0, 121)]
    numbers += ["200", "202", "220", "222", "1000", "1002", "1020", "1200", "2000", "2002", "2020", "2200",
                "10000", "10001", "10010", "10100", "11000", "12000", "20000", "20200", "22000", "100000",
                "1000000", "10000000", "100000000", "100000001", "120000000", "200000000", "1000000000000",
                "10000000000000000", "00", "000", "007", "0100", "01", "05", "0.5", "0.05", "3.14", "10.5",
                "12.00", "200.02", "1.0", "100.001", "2.2", "22.22", "0.0", "1234567890", "9876543210987",
                "３", "１２", "０５", "２００", "３．５"]
    for digits in range(1, 21):
        for _ in range(4):
            numbers.append(str(rng.randrange(10 ** (digits - 1), 10 ** digits)))
    for _ in range(30):
        numbers.append(f"{rng.randrange(0, 100000)}.{rng.randrange(0, 1000):03d}")
    return list(dict.fromkeys(numbers))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cn-tn", required=True, help="cn_tn.py (UltraEval-Audio audio_evals/lib/text_normalization/cn_tn.py)")
    ap.add_argument("--sacrebleu-ja", required=True, help="sacreBLEU 2.x sacrebleu/tokenizers/tokenizer_ja_mecab.py")
    ap.add_argument("--sacrebleu-ja-15", required=True, help="sacreBLEU 1.5 sacrebleu/tokenizers/tokenizer_ja_mecab.py")
    ap.add_argument("--cn-tn-origin", default="AudioTrust/AudioTrust@b19fcf770a86957f44af62323c956e431719c3a4:"
                    "audio_evals/lib/text_normalization/cn_tn.py", help="where --cn-tn was read (recorded)")
    ap.add_argument("--sacrebleu-ja-origin", default="mjpost/sacrebleu@0dca9d481824294b6e2b67b5bc6d7b6564a2553a:"
                    "sacrebleu/tokenizers/tokenizer_ja_mecab.py", help="where --sacrebleu-ja was read (recorded)")
    ap.add_argument("--ipadic-upstream", required=True, help="IPAdic as released (scripts/build_sacrebleu_ipadic.sh)")
    ap.add_argument("--ipadic-debian", default="/var/lib/mecab/dic/ipadic-utf8", help="Debian's compiled IPAdic")
    ap.add_argument("--reference-dir", required=True, help="shared/reference")
    ap.add_argument("--inputs", default=os.path.join(HERE, "inputs"), help="folder with handwritten_{zh,yue,ja}.txt")
    ap.add_argument("--whisper-tool", required=True, help="make_whisper_inputs (built from make_whisper_inputs.cpp)")
    ap.add_argument("--out", default=HERE)
    ap.add_argument("--mecab-worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.mecab_worker:
        return mecab_worker(args.mecab_worker)

    with tempfile.TemporaryDirectory() as tmp:
        packages = make_packages(tmp, args)
        write_cn_tn(args)
        write_ja_mecab(args, tmp, packages)
        write_opencc(args)


# ---------------------------------------------------------------------------- cn_tn

def zh_inputs(args):
    items = aishell_inputs(args.reference_dir)
    for name in ("zh", "yue"):
        for n, text in enumerate(read_lines(os.path.join(args.inputs, f"handwritten_{name}.txt"))):
            items.append((f"handwritten-{name}/{n:03d}", text,
                          {"source": "hand-written for aeval", "file": f"inputs/handwritten_{name}.txt", "line": n + 1}))
    items.append(("edge/empty", "", {"source": "edge case"}))
    return unique(items)


def write_cn_tn(args):
    cn_tn = load_module("cn_tn", args.cn_tn)
    # audio_evals/lib/wer.py: chinese_normalizer = TextNorm(...) with exactly these arguments
    normalizer = cn_tn.TextNorm(to_banjiao=False, to_upper=False, to_lower=False, remove_fillers=False,
                                remove_erhua=False, check_chars=False, remove_space=False, cc_mode="")
    inputs = zh_inputs(args)
    normalized = whisper_english(args.whisper_tool, [t for _, t, _ in inputs])
    records = []
    for key, text, prov in inputs:
        records.append({"id": f"cn_tn/text_norm/{key}/raw", "kind": "text_norm", "variant": "raw", "input": text,
                        "expected": {"text_norm": normalizer(text), "normalize_nsw": cn_tn.normalize_nsw(text)},
                        "provenance": prov})
    for (key, text, prov), w in zip(inputs, normalized):
        records.append({"id": f"cn_tn/text_norm/{key}/whisper_english", "kind": "text_norm",
                        "variant": "whisper_english", "input": w, "raw_input": text,
                        "expected": {"text_norm": normalizer(w), "normalize_nsw": cn_tn.normalize_nsw(w)},
                        "provenance": dict(prov, input_made_by=WHISPER_NOTE)})
    for n in number_strings():
        records.append({"id": f"cn_tn/num2chn/{n}", "kind": "num2chn", "input": n,
                        "expected": {"cardinal": call(cn_tn.num2chn, n),
                                     "digits": call(cn_tn.num2chn, n, alt_two=False, use_units=False)},
                        "provenance": {"source": "number list of make_uea_text_golden.py (random.Random(20240601))"}})
    write_jsonl(os.path.join(args.out, "cn_tn.jsonl"), records,
                f"{args.cn_tn_origin} (sha256 {sha256(args.cn_tn)[:16]}), CPython {sys.version.split()[0]}")


# ---------------------------------------------------------------------------- ja-mecab

def make_packages(tmp, args):
    packages = {}
    for name, source, base_file, base in (("sb2", args.sacrebleu_ja, "tokenizer_base.py", SHIM_BASE_2X),
                                          ("sb15", args.sacrebleu_ja_15, "tokenizer_none.py", SHIM_BASE_15)):
        folder = os.path.join(tmp, name)
        os.makedirs(folder)
        open(os.path.join(folder, "__init__.py"), "w").close()
        with open(os.path.join(folder, base_file), "w") as f:
            f.write(base)
        shutil.copy(source, os.path.join(folder, "tokenizer_ja_mecab.py"))
        packages[name] = source
    os.makedirs(os.path.join(tmp, "ipadic"))
    with open(os.path.join(tmp, "ipadic", "__init__.py"), "w") as f:
        f.write(SHIM_IPADIC)
    open(os.path.join(tmp, "mecabrc"), "w").close()
    return packages


def run_mecab_worker(tmp, package, dicdir, texts, optimize):
    env = dict(os.environ, UEA_IPADIC_DICDIR=dicdir, UEA_IPADIC_MECABRC=os.path.join(tmp, "mecabrc"), PYTHONPATH=tmp)
    # python3 -O drops sacreBLEU's `assert d.size == 392126`, for Debian's dictionary only.
    cmd = [sys.executable] + (["-O"] if optimize else []) + [os.path.abspath(__file__), "--mecab-worker", package,
                                                             "--cn-tn=-", "--sacrebleu-ja=-", "--sacrebleu-ja-15=-",
                                                             "--ipadic-upstream=-", "--reference-dir=-", "--whisper-tool=-"]
    out = subprocess.run(cmd, input=json.dumps(texts), capture_output=True, text=True, env=env)
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout)


def mecab_worker(package):
    module = importlib.import_module(package + ".tokenizer_ja_mecab")
    tokenizer = module.TokenizerJaMecab()
    d = tokenizer.tagger.dictionary_info()
    texts = json.loads(sys.stdin.read())
    json.dump({"outputs": [tokenizer(t) for t in texts], "size": d.size, "charset": d.charset,
               "signature": tokenizer.signature()}, sys.stdout, ensure_ascii=False)


def write_ja_mecab(args, tmp, packages):
    raw = read_lines(os.path.join(args.inputs, "handwritten_ja.txt"))
    normalized = whisper_english(args.whisper_tool, raw)
    edge = [("edge/empty", ""), ("edge/spaces", "  \u3000 "), ("edge/ascii-spaces-inside", "今日は  晴れ"),
            ("edge/tab-newline", "\t今日は晴れ\n"), ("edge/latin-only", "hello world"),
            ("edge/digits", "1234567890"), ("edge/reiwa-only", "令和")]
    cases = [(f"handwritten-ja/{n:03d}", t, "raw", None) for n, t in enumerate(raw)]
    cases += [(k, t, "edge", None) for k, t in edge]
    cases += [(f"handwritten-ja/{n:03d}", w, "whisper_english", raw[n]) for n, w in enumerate(normalized)]
    texts = [c[1] for c in cases]
    upstream = run_mecab_worker(tmp, "sb2", args.ipadic_upstream, texts, optimize=False)
    upstream15 = run_mecab_worker(tmp, "sb15", args.ipadic_upstream, texts, optimize=False)
    debian = run_mecab_worker(tmp, "sb2", args.ipadic_debian, texts, optimize=True)
    assert upstream["outputs"] == upstream15["outputs"], "sacreBLEU 1.5 and 2.x ja-mecab disagree"
    records = []
    for (key, text, variant, raw_text), out, deb in zip(cases, upstream["outputs"], debian["outputs"]):
        rec = {"id": f"ja_mecab/{key}/{variant}", "kind": "ja_mecab", "variant": variant, "input": text}
        if raw_text is not None:
            rec["raw_input"] = raw_text
        rec["expected"] = {"ja_mecab": out, "ja_mecab_debian_ipadic": deb}
        if variant == "edge":
            rec["provenance"] = {"source": "edge case"}
        else:
            n = int(key.split("/")[-1])
            rec["provenance"] = {"source": "hand-written for aeval", "file": "inputs/handwritten_ja.txt", "line": n + 1}
            if variant == "whisper_english":
                rec["provenance"]["input_made_by"] = WHISPER_NOTE
        records.append(rec)
    assert upstream["size"] == 392126 and debian["size"] == 392127, (upstream["size"], debian["size"])
    write_jsonl(os.path.join(args.out, "ja_mecab.jsonl"), records,
                f"{args.sacrebleu_ja_origin} (sha256 {sha256(packages['sb2'])[:16]}; the 1.5 file agrees), "
                f"{upstream['signature']} = Debian python3-mecab 0.996; ja_mecab: IPAdic 2.7.0-20070801 as released "
                f"({upstream['size']} entries); ja_mecab_debian_ipadic: Debian mecab-ipadic-utf8 ({debian['size']} entries)")


# ---------------------------------------------------------------------------- OpenCC

def opencc_cli(config, texts):
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = os.path.join(tmp, "in.txt"), os.path.join(tmp, "out.txt")
        with open(src, "w", encoding="utf-8") as f:
            f.write("\n".join(texts) + "\n")
        subprocess.run(["opencc", "-c", config, "-i", src, "-o", dst], check=True)
        with open(dst, encoding="utf-8") as f:
            lines = f.read().split("\n")
    assert lines[-1] == "" and len(lines) == len(texts) + 1, (config, len(lines), len(texts))
    return lines[:-1]


def write_opencc(args):
    yue = read_lines(os.path.join(args.inputs, "handwritten_yue.txt"))
    cases = [(f"handwritten-yue/{n:03d}", t, "raw") for n, t in enumerate(yue)]
    cases += [(k, t, "raw") for k, t, _ in aishell_inputs(args.reference_dir)[:40]]
    cases += [(f"handwritten-yue/{n:03d}", w, "whisper_english") for n, w in enumerate(whisper_english(args.whisper_tool, yue))]
    cases += [("edge/empty", "", "edge"), ("edge/latin", "Hello, World 123", "edge"),
              ("edge/mixed", "我哋用iPhone 15睇YouTube", "edge")]
    texts = [t for _, t, _ in cases]
    configs = ("t2s.json", "hk2s.json", "tw2sp.json")
    outputs = {c: opencc_cli(c, texts) for c in configs}
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "opencc"], capture_output=True, text=True).stdout
    records = [{"id": f"opencc_cli/{key}/{variant}", "kind": "opencc_cli", "variant": variant, "input": text,
                "expected": {c: outputs[c][i] for c in configs}}
               for i, (key, text, variant) in enumerate(cases)]
    write_jsonl(os.path.join(args.out, "opencc_cli.jsonl"), records,
                f"Debian opencc {version} command-line tool (plumbing check, not zhconv)")


def write_jsonl(path, records, reference):
    with open(path, "w", encoding="utf-8") as f:
        for r in records:
            r["reference"] = reference
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{path}: {len(records)} records", file=sys.stderr)


if __name__ == "__main__":
    main()
