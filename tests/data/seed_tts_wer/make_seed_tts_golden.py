#!/usr/bin/env python3
"""Golden vectors of Seed-TTS-Eval's ASR-WER text side (see README.md): the reference's own
process_one, run on the pairs below, which are the only hand-written part. Records the two texts
process_one hands to jiwer.compute_measures, and the WER of that pair."""
import importlib.util
import json
import sys

stand_ins, uea = sys.argv[1], sys.argv[2]
sys.path.insert(0, stand_ins)  # zhon (the real package), and the stand-ins named in README.md
import jiwer  # noqa: E402  (the stand-in: records what it is asked)

spec = importlib.util.spec_from_file_location(
    "seed_tts_eval_asr_wer", f"{uea}/audio_evals/evaluator/seed_tts_eval_asr_wer.py")
reference = importlib.util.module_from_spec(spec)
spec.loader.exec_module(reference)

PAIRS = {  # (transcript, reference text)
    "en": [
        ("Hello, world!", "hello world"),
        ("The quick brown fox jumps over the lazy dog.", "The quick brown fox jumped over a lazy dog."),
        ("It's a dog's life; isn't it?", "its a dogs life isnt it"),
        ("Numbers 1, 2 and 3.", "numbers one two and three"),
        ("ÉCOLE Straße İstanbul", "école strasse istanbul"),
        ("Fullwidth：punctuation，here．And there！", "fullwidth punctuation here and there"),
        ("dashes – and — and “quotes” and ‘single’", "dashes and and quotes and single"),
        ("  spaced   out\ttext  ", "spaced out text"),
        ("", "something was said"),
        ("extra words here", "words"),
        ("a-b c/d e_f", "ab cd ef"),
        ("something", "!!! ..."),
    ],
    "zh": [
        ("今天天气很好。", "今天天气很好"),
        ("他说：“我们去吧！”", "他说我们走吧"),
        ("英文ABC和中文", "英文abc和中文"),
        ("全角．句号和半角.句号", "全角句号和半角句号"),
        ("空格　全角 和 tab\t分隔", "空格全角和tab分隔"),
        ("《三体》【推荐】", "三体推荐"),
        ("", "有话说"),
    ],
    "ja": [("今日は、いい天気です。", "今日はいい天気です")],
    "ko": [("안녕하세요, 세계!", "안녕하세요 세계")],
}

with open("seed_tts_wer.jsonl", "w", encoding="utf-8") as out:
    for language, pairs in PAIRS.items():
        for hypo, truth in pairs:
            jiwer.asked.clear()
            try:
                wer = reference.process_one(hypo, truth, language)
            except ValueError:  # jiwer's, for a reference with no word
                wer = None
            (asked_truth, asked_hypo), = jiwer.asked
            out.write(json.dumps({"language": language, "hypo": hypo, "truth": truth, "jiwer_truth": asked_truth,
                                  "jiwer_hypo": asked_hypo, "wer": wer}, ensure_ascii=False) + "\n")
