#!/usr/bin/env python3
"""Golden vectors of Long-TTS-Eval's text normalization (see README.md): the reference's own
normalize_text and num2words, run on the inputs below, which are the only hand-written part."""
import json
import random
import sys

sys.path.insert(0, sys.argv[1])  # the reference module and its stand-ins (README.md)
from audio_evals.evaluator.long_tts_eval_asr_wer import normalize_text  # noqa: E402
from num2words import num2words  # noqa: E402

TEXTS = {
    "en": [
        "Hello, World!",
        "The meeting starts at 9:30, not 10.",
        "In 1999 there were 1,234,567 people; by 2024, 12 more.",
        "It costs $5.99 (about 5 euros) -- or 599 cents.",
        "Call 007 or 0042, then 0.",
        "Room 101, floor 21, building 100000.",
        "He said: \"don't\" and 'won't' -- it's fine.",
        "A 20-year-old, a 3rd place and 4th July.",
        "Numbers: 1 2 3 11 13 19 20 21 29 30 45 99 100 101 110 119 999 1000 1001 1010 1100.",
        "Big: 1000000 1000001 1000100 123456789 1000000000000 999999999999999.",
        "UPPER Case AND MiXeD, with\ttabs\nand\u00a0no-break\u3000spaces.",
        "Fullwidth digits \uff11\uff12\uff13 and Arabic-Indic \u0661\u0662 and Devanagari \u0967\u0966.",
        "Unicode dashes \u2013 and \u2014 and quotes \u201clike this\u201d and \u2018that\u2019.",
        "Symbols @#%^&*_+=~`|\\/<>[]{} all go.",
        "An overflow " + "9" * 310 + " keeps every number here as digits: 5 and 6.",
        "Just under the limit: " + "9" * 306 + ".",
        "Ellipsis\u2026 and a middle dot \u00b7 and ideographic stop\u3002",
        "Caf\u00e9 na\u00efve \u00c9COLE \u0130stanbul \u1e9e.",
        "   leading and trailing   ",
        "",
        "Version 2.0.1 of model 3b was 40% better in Q3 2023.",
        "Mixed English and \u4e2d\u6587 text with 12 numbers.",
    ],
    "zh": [
        "\u4eca\u5929\u662f2024\u5e743\u670815\u65e5\uff0c\u5929\u6c14\u5f88\u597d\u3002",
        "\u4ed6\u8bf4\uff1a\u201c\u6211\u4eec\u53bb\u5427\uff01\u201d\u7136\u540e\u8d70\u4e86\u2026\u2026",
        "\u300a\u4e09\u4f53\u300b\u662f\u4e00\u672c\u79d1\u5e7b\u5c0f\u8bf4\u3010\u63a8\u8350\u3011\u3002",
        "\u6211\u4eec\u7528GPT-4\u548cWhisper\u505a\u5b9e\u9a8c\uff0c\u6548\u679c\u63d0\u5347\u4e8630%\u3002",
        "\u82f1\u6587ABC\u548c\u4e2d\u6587\u6df7\u5408abc\u6d4b\u8bd5",
        "\u7a7a\u683c\u3000\u5168\u89d2\u7a7a\u683c \u548c tab\t\u5206\u9694",
        "\u7e41\u9ad4\u5b57\u4e5f\u4fdd\u7559\uff1a\u9019\u500b\u554f\u984c\u5f88\u8907\u96dc\u3002",
        "\u4ef7\u683c\u662f\uffe5100\uff0c\u7ea6\u7b49\u4e8e$14.5\u3002",
        "\u3007\u4e00\u4e8c\u4e09 and \u3400\u4e00\u9fff\ua000",
        "",
        "\u00b7\u4e00\u4e2a\u4eba\u00b7\u4e24\u4e2a\u4eba\u3001\u4e09\u4e2a\u4eba\uff1b\u56db\u4e2a\u4eba\uff1f",
        "Hello\u4e16\u754c123\u4f60\u597d",
    ],
}


def number_cases():
    # 0-1200, every power name, and random numbers of every length up to 40 digits and some longer
    numbers = list(range(0, 1201)) + [10 ** k for k in range(3, 306, 3)] + [10 ** k + 1 for k in range(3, 306, 7)]
    rng = random.Random(20261125)
    for digits in list(range(4, 41)) * 3 + list(range(41, 307, 23)):
        numbers.append(rng.randrange(10 ** (digits - 1), 10 ** digits))
    numbers += [10 ** 306 - 1, 10 ** 306, 10 ** 306 + 1, 10 ** 400]
    for n in numbers:
        try:
            words = num2words(n, lang="en")
        except OverflowError:
            words = None
        yield {"kind": "cardinal", "digits": str(n), "words": words}


with open("long_tts_norm.jsonl", "w", encoding="utf-8") as out:
    for case in number_cases():
        out.write(json.dumps(case, ensure_ascii=False) + "\n")
    for language, texts in TEXTS.items():
        for text in texts:
            case = {"kind": "normalize", "language": language, "input": text,
                    "normalized": normalize_text(text, language)}
            out.write(json.dumps(case, ensure_ascii=False) + "\n")
