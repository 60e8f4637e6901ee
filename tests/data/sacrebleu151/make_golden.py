#!/usr/bin/python3
"""UltraEval-Audio's BLEU evaluator and BLEU aggregation under sacreBLEU 1.5.1 (UEA's pin) -> golden.jsonl.

Each value is computed by UEA's own classes (audio_evals.evaluator.bleu.BLEU, audio_evals.agg.base.BLEU)
from ../shared/uea (commit 9b69da6), built with make_object from the arguments of UEA's registry entries,
calling sacreBLEU 1.5.1 from ../shared/uea-python/src. Only the texts below are hand-written.

* Evaluator records: evaluator(pred, ref) as EvalTask calls it; its dict {"pred", "ref", "bleu"}, or
  {"error": "<Type>: <message>"} where it raised (UEA then drops the sample).
* Aggregation records: the aggregation called on the evaluator's dicts of a corpus (the samples it did not
  drop); its dict, UEA's own {"error": str(e)} where _agg raised.
* "sacrebleu": 1.5.1's corpus_bleu called directly with the same texts and tokenizer, for diagnosis
  (UEA keeps only .score; the generator asserts it is the same number).

Entries: UEA's bleu, bleu-zh, bleu-jp, bleu-char (evaluator/common.yaml, agg/naive.yaml) and our own
`ours-bleu-ja` (lang: ja), the only argument through which either class reaches ja-mecab.

ja-mecab: Debian's python3-mecab (MeCab 0.996, as in mecab-python3) with IPAdic as released (392126 entries,
which 1.5.1 asserts and PyPI's `ipadic` ships), built by scripts/build_sacrebleu_ipadic.sh; `ipadic` is a
stand-in module giving MECAB_ARGS for it. Modules agg/base.py imports for other classes (jiwer,
audio_evals.lib.coco, audio_evals.lib.wer) are stand-ins that raise if called.

usage: PYTHONPATH=../shared/uea-python/src /usr/bin/python3 tests/data/sacrebleu151/make_golden.py [UEA_DIR]
"""
import json
import os
import subprocess
import sys
import tempfile
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
UEA = (Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / ".." / "shared" / "uea").resolve()
sys.path[:0] = [str(UEA), str(UEA.parent / "uea-python" / "src")]


def _stand_in_call(*args, **kwargs):
    raise RuntimeError("stand-in: not part of these vectors")


for _name, _attrs in {"jiwer": ["cer", "wer"], "audio_evals.lib.coco": ["compute_caption"],
                      "audio_evals.lib.wer": ["compute_wer"]}.items():
    _module = types.ModuleType(_name)
    for _attr in _attrs:
        setattr(_module, _attr, _stand_in_call)
    sys.modules[_name] = _module

# IPAdic as released, and the `ipadic` locator pointing at it (Debian's libmecab takes the paths unquoted).
_TMP = tempfile.TemporaryDirectory()
_DICDIR = os.path.join(_TMP.name, "ipadic-sacrebleu")
subprocess.run(["sh", str(ROOT / "scripts" / "build_sacrebleu_ipadic.sh"), _DICDIR], check=True)
_MECABRC = os.path.join(_TMP.name, "mecabrc")
open(_MECABRC, "w").close()
_ipadic = types.ModuleType("ipadic")
_ipadic.DICDIR = _DICDIR
_ipadic.MECAB_ARGS = "-r {} -d {}".format(_MECABRC, _DICDIR)
sys.modules["ipadic"] = _ipadic

import sacrebleu  # noqa: E402
import yaml  # noqa: E402

from audio_evals.utils import make_object  # noqa: E402

assert sacrebleu.__version__ == "1.5.1", sacrebleu.__version__

ENTRIES = ["bleu", "bleu-zh", "bleu-jp", "bleu-char"]
OWN_ENTRIES = {"ours-bleu-ja": {"lang": "ja"}}

# CoVoST 2-like system outputs and references, written for aeval. Each: (pred, ref).
TEXTS = {
    "en": [
        ("The museum opens at nine o'clock.", "The museum opens at nine o'clock."),
        ("the united states is a large country.", "The United States is a large country."),
        ("The U.S. economy grew by 3.5 percent last year.", "The U.S. economy grew 3.5% last year."),
        ("About 1,200 people attended the concert.", "Around 1,200 people came to the concert."),
        ("She is a well-known twenty-year-old singer.", "She's a well known 20-year-old singer."),
        ("", "I would like a cup of coffee, please."),
        ("Thank you.", "Thank you very much for inviting me to your wonderful party last weekend."),
        ("Yes, yes, I think that we should probably go there tomorrow morning, or maybe in the afternoon, "
         "if the weather is good enough for a long walk.", "We should go tomorrow."),
        ("Quiero comer pan ahora mismo", "I want to eat bread right now."),
        ("Hola amigo", "Hello friend."),
        ("Café au lait costs €3.50 in Zürich — naïve prices!", "A café au lait costs 3.50 € in Zurich; prices are naïve."),
        ("He said “hello” and left…", "He said \"hello\" and then left..."),
        ("Tom &amp; Jerry is a cartoon", "Tom & Jerry is a cartoon."),
        ("The train is late again.  \t", "The train is late again."),
        ("The river is very wide .", "The river is very wide."),
        ("Goodbye", "Goodbye"),
        ("Something was said here.", "   "),
        ("On 12/05/2021 at 3:30 pm, 45 % of voters agreed.", "On 12/05/2021 at 3:30 p.m., 45% of the voters agreed."),
        ("I don't think it's ready yet", "I do not think it is ready yet."),
        ("Dr. Smith met Mr. Jones at 5 p.m. in Washington, D.C.", "Dr. Smith met Mr. Jones in Washington D.C. at 5 p.m."),
        ("first line-\nsecond line of text here", "first linesecond line of text here"),
        ("This <skipped> part was not translated at all", "This part was not translated at all."),
        ("the the the the the the the", "The cat is on the mat."),
        ("...", "Okay."),
        ("Pages 10-20 were missing from the 2019-2020 report.", "Pages 10 to 20 were missing from the 2019–2020 report."),
        ("Write to info@example.org or visit www.example.org/help", "Write to info@example.org or visit www.example.org/help."),
        ("Great job 👍 everyone!", "Great job, everyone!"),
        ("It costs 5\u00a0dollars and 20\u2009cents.", "It costs 5 dollars and 20 cents."),
        ("alpha\x1fbeta gamma delta epsilon", "alpha beta gamma delta epsilon"),
        ("The meeting was moved to Friday.", ""),
    ],
    "de": [
        ("Das Wetter ist heute sehr schön.", "Das Wetter ist heute sehr schön."),
        ("Ich habe 3,5 Kilogramm Äpfel gekauft.", "Ich kaufte 3,5 kg Äpfel."),
        ("Die Straße ist zu groß für uns.", "Die Strasse ist für uns zu gross."),
        ("die deutsche bahn hat verspätung.", "Die Deutsche Bahn hat Verspätung."),
        ("Die E-Mail-Adresse ist nicht gültig.", "Die E-Mail Adresse ist ungültig."),
        ("„Komm sofort nach Hause!“, rief sie.", "\"Komm sofort nach Hause!\", rief sie."),
        ("Es kamen 1.500 Besucher am 3. Oktober.", "Am 3. Oktober kamen 1.500 Besucher."),
        ("", "Vielen Dank für Ihre Hilfe."),
        ("Ja.", "Ja, das ist genau das, was ich die ganze Zeit sagen wollte."),
        ("Wir müssen morgen früh, wenn es nicht regnet, mit dem Fahrrad zur Arbeit fahren und danach noch "
         "einkaufen gehen.", "Wir fahren morgen Rad."),
        ("I do not know the answer", "Ich kenne die Antwort nicht."),
        ("Die U.S.-Regierung hat 2 Mrd. Dollar bereitgestellt.", "Die US-Regierung stellte 2 Milliarden Dollar bereit."),
        ("Obst, z. B. Äpfel und Birnen, ist gesund.", "Obst, z.B. Äpfel oder Birnen, ist gesund."),
        ("Der Zug fährt um 14:30 Uhr ab.", "Der Zug fährt um 14.30 Uhr."),
        ("Die Inflation lag bei 7,9 %.", "Die Inflationsrate betrug 7,9 Prozent."),
        ("Guten Morgen, Frau Müller!\t ", "Guten Morgen, Frau Müller!"),
        ("Danke", "Danke!"),
        ("und und und und und", "Und dann gingen wir nach Hause und schliefen."),
        ("Hallo Welt", ""),
        ("Er kam – wie immer – zu spät.", "Er kam, wie immer, zu spät."),
        ("Wie geht's dir heute?", "Wie geht es dir heute?"),
        ("Das kostet 19,99 € pro Monat.", "Es kostet 19,99 Euro im Monat."),
        ("Sie wohnt in der Goethestraße 12a, 3. OG.", "Sie wohnt in der Goethestr. 12a im dritten Stock."),
        ("Keine Ahnung, wirklich keine.", "\u3000"),
    ],
    "zh": [
        ("今天天气很好。", "今天天气很好。"),
        ("我们明天早上八点出发。", "我们明天上午8点出发。"),
        ("我在Google工作了3年。", "我在 Google 工作了三年。"),
        ("这座城市有1,200万人口。", "这个城市的人口有1200万。"),
        ("U.S.政府宣布了新的政策。", "美国政府宣布了新政策。"),
        ("他说：“你好！”然后离开了。", "他说\"你好\"，然后走了。"),
        ("", "谢谢你的帮助。"),
        ("好。", "好的，我明白你的意思了，我们下周再讨论这个问题吧。"),
        ("我觉得我们应该在下个星期的某一天，如果天气好的话，一起去公园散步，然后去吃晚饭。", "我们下周去公园。"),
        ("I like to read books", "我喜欢读书。"),
        ("ＡＩ技术发展很快，２０２３年尤其如此。", "AI技术发展很快，2023年尤其如此。"),
        ("经济增长了5.2%。", "经济增长百分之五点二。"),
        ("我們明天見。", "我们明天见。"),
        ("这个app很好用👍", "这个应用程序很好用。"),
        ("北京是中国的首都。  ", "北京是中国的首都"),
        ("价格是€20—非常便宜…", "价格是20欧元，非常便宜。"),
        ("COVID-19疫情影响了全球经济。", "新冠疫情影响了全球经济。"),
        ("的的的的的的", "这是我的书。"),
        ("是", "是。"),
        ("你好世界", "  "),
        ("iPhone 15 Pro的价格是7,999元。", "iPhone 15 Pro售价7999元。"),
        ("北京　上海　广州", "北京、上海、广州"),
        ("你好\u200b世界", "你好世界"),
        ("他今年二十五岁了", ""),
        ("第3.5章讲的是U.S.历史", "第3.5章讲的是美国历史。"),
    ],
    "ja": [
        ("今日はとても良い天気です。", "今日はとても良い天気です。"),
        ("私は毎朝7時に起きます。", "私は毎朝七時に起きます。"),
        ("東京タワーの高さは333メートルです。", "東京タワーは高さ333mです。"),
        ("彼はGoogleでエンジニアとして働いています。", "彼はグーグルのエンジニアです。"),
        ("U.S.の経済は成長しています。", "アメリカ経済は成長している。"),
        ("", "ありがとうございます。"),
        ("はい。", "はい、その件については来週の会議で詳しく説明させていただきます。"),
        ("明日の朝、もし雨が降らなければ、私たちは駅の近くの公園まで歩いて行って、そこで昼ご飯を食べる予定です。",
         "明日公園に行きます。"),
        ("I am going to the station", "駅に行きます。"),
        ("ＪＲ東日本の列車が１０分遅れた。", "JR東日本の電車が10分遅れました。"),
        ("コンピューターのソフトウェアをアップデートしてください。", "パソコンのソフトを更新してください。"),
        ("彼女は「こんにちは」と言った。", "彼女は「こんにちは」と言いました。"),
        ("売上は前年比15%増加した。", "売り上げは昨年より15パーセント増えた。"),
        ("おはようございます。 \t", "おはようございます"),
        ("COVID-19の影響で会社は休みです。", "新型コロナの影響で会社が休みです。"),
        ("猫", "猫です。"),
        ("ですですですです", "これはペンです。"),
        ("楽しかった😊", "楽しかったです。"),
        ("こんにちは世界", "　"),
        ("ちょっと待ってください。", "少々お待ちください。"),
        ("人口は約1,400万人です。", "人口はおよそ1400万人です。"),
        ("東京　大阪　名古屋", "東京、大阪、名古屋"),
        ("彼は先週New Yorkに行った", ""),
        ("お茶とコーヒー、どちらにしますか？", "お茶とコーヒーのどちらがいいですか?"),
    ],
}

# Pairs whose hypothesis shares no word with its reference (untranslated, or a reference of blanks).
NO_COMMON_WORD = {"en": [8, 9, 16], "de": [10, 23], "zh": [9, 19], "ja": [8, 18]}


def registry_args(kind, name):
    """The entry's args as UEA's registry gives them (files in sorted order, as Registry._load_registry)."""
    for path in sorted((UEA / "registry" / kind).rglob("*.yaml")):
        entries = yaml.safe_load(path.read_text()) or {}
        if name in entries:
            return entries[name].get("args") or {}
    raise KeyError(name)


def error_text(e):
    return "{}: {}".format(type(e).__name__, e)


def stats(preds, refs, tokenize):
    """1.5.1's corpus_bleu as UEA calls it, every statistic kept."""
    s = sacrebleu.corpus_bleu(preds, [refs], tokenize=tokenize)
    return {"score": s.score, "counts": s.counts, "totals": s.totals, "precisions": s.precisions, "bp": s.bp,
            "sys_len": s.sys_len, "ref_len": s.ref_len}


def main():
    evaluator_class, agg_class = "audio_evals.evaluator.bleu.BLEU", "audio_evals.agg.base.BLEU"
    entries = {name: (registry_args("evaluator", name), registry_args("agg", name)) for name in ENTRIES}
    entries.update({name: (args, args) for name, args in OWN_ENTRIES.items()})
    records = []
    for name, (evaluator_args, agg_args) in entries.items():
        evaluator = make_object(evaluator_class, **evaluator_args)
        agg = make_object(agg_class, **agg_args)
        for lang, pairs in TEXTS.items():
            kept = {}  # the dicts of the samples UEA keeps, by pair
            for i, (pred, ref) in enumerate(pairs):
                rec = {"id": "evaluator/{}/{}/{:02d}".format(name, lang, i), "kind": "evaluator", "entry": name,
                       "class": evaluator_class, "args": evaluator_args, "tokenize": evaluator.lang,
                       "pred": pred, "ref": ref}
                try:
                    rec["expected"] = evaluator(pred, ref)
                    rec["sacrebleu"] = stats([pred], [ref], evaluator.lang)
                    assert rec["sacrebleu"]["score"] == rec["expected"]["bleu"], rec["id"]
                    kept[i] = rec["expected"]
                except Exception as e:  # noqa: BLE001 -- UEA's EvalTask catches any exception too
                    rec["expected"] = {"error": error_text(e)}
                records.append(rec)
            results = list(kept.values())
            # with_empty_ref: a dict no BLEU evaluator leaves (it raises on ""), for the aggregation's own filter.
            corpora = {"all": results, "first8": results[:8], "single": results[2:3],
                       "no_common_word": [kept[i] for i in NO_COMMON_WORD[lang] if i in kept],
                       "with_empty_ref": results[:4] + [{"pred": "an unscored line", "ref": "", "bleu": 0.0}]}
            for corpus, results in corpora.items():
                rec = {"id": "agg/{}/{}/{}".format(name, lang, corpus), "kind": "agg", "entry": name,
                       "class": agg_class, "args": agg_args, "tokenize": agg.lang, "results": results,
                       "expected": agg(results)}
                if "error" not in rec["expected"]:
                    scored = [d for d in results if d["ref"]]
                    rec["sacrebleu"] = stats([str(d["pred"]) for d in scored], [str(d["ref"]) for d in scored],
                                             agg.lang)
                    assert rec["sacrebleu"]["score"] == rec["expected"]["bleu"], rec["id"]
                records.append(rec)
    with open(HERE / "golden.jsonl", "w", encoding="utf-8") as out:
        for rec in records:
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print("{} records; sacreBLEU {}".format(len(records), sacrebleu.__version__), file=sys.stderr)


if __name__ == "__main__":
    main()
