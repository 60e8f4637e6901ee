"""Writes qa_exist_match.jsonl, choice_strings_match.jsonl and prefix_match.jsonl in this folder.

Expected values come from UltraEval-Audio's evaluator code itself, which this
script imports from a folder outside the repository (REFERENCE_DIR, laid out as
audio_evals/evaluator/{qa_exact_match,string_match}.py with a stub base.py;
see README.md for where the two files come from). Only the inputs are written
here: questions, reference answers and model answers.

    /usr/bin/python3 make_uea_match_golden.py /tmp/uearef /tmp/uearef/ueabase

The second folder holds UltraEval-Audio's own audio_evals/evaluator/base.py
(PrefixMatch), laid out the same way.
"""
import hashlib
import json
import os
import sys
import unicodedata

REFERENCE_DIR = sys.argv[1]
sys.path.insert(0, REFERENCE_DIR)
from audio_evals.evaluator.qa_exact_match import has_answer, s_tokenizer  # noqa: E402
from audio_evals.evaluator.string_match import string_match  # noqa: E402
import regex  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
COMMIT = "b19fcf770a86957f44af62323c956e431719c3a4"


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()[:16]


def reference(name):
    path = os.path.join(REFERENCE_DIR, "audio_evals", "evaluator", name)
    return "AudioTrust/AudioTrust@%s:audio_evals/evaluator/%s (sha256 %s); python %s, regex %s, unicodedata %s" % (
        COMMIT, name, sha(path), sys.version.split()[0], regex.__version__, unicodedata.unidata_version)


# Spoken-QA answers: (references, [model answers]). Questions in the style of the
# LLaMA-Questions, Web Questions and TriviaQA sets; answers as a chat model writes them.
QA = [
    ("what is the capital of australia", ["Canberra"], [
        "The capital of Australia is Canberra.", "Sydney is the capital of Australia.",
        "canberra", "It's CANBERRA!", "Canberra's the capital.", "Can berra", ""]),
    ("who wrote the novel nineteen eighty-four", ["George Orwell", "Eric Arthur Blair", "Orwell"], [
        "Nineteen Eighty-Four was written by George Orwell in 1949.",
        "It was written by Eric Blair, better known by his pen name.",
        "The author is Aldous Huxley.", "george  orwell", "George-Orwell wrote it."]),
    ("how many legs does a spider have", ["8", "eight"], [
        "A spider has eight legs.", "Spiders have 8 legs.", "Spiders have 6 legs.",
        "They have 18 legs.", "8.", "Eight", "A spider has eight-legs."]),
    ("what year did the berlin wall fall", ["1989"], [
        "The Berlin Wall fell in 1989.", "It fell on 9 November 1989.", "It fell in 1,989.",
        "It fell in 19 89.", "November 1991"]),
    ("what currency is used in japan", ["yen", "Japanese yen"], [
        "Japan uses the yen (¥).", "The Japanese Yen", "The currency is the yuan.", "Yen¥"]),
    ("where was albert einstein born", ["Ulm", "Ulm, Germany"], [
        "Einstein was born in Ulm, in the Kingdom of Württemberg.", "He was born in Ulm Germany.",
        "He was born in Munich.", "ulm,germany"]),
    ("what is the largest city in switzerland", ["Zürich", "Zurich"], [
        "Zurich is the largest city.", "Zürich.", "Zu\u0308rich is the largest.", "ZÜRICH",
        "Geneva is the largest city."]),
    ("who painted the mona lisa", ["Leonardo da Vinci"], [
        "The Mona Lisa was painted by Leonardo da Vinci.", "Leonardo painted it.",
        "It was painted by Leonardo Da Vinci around 1503.", "Leonardo\nda\tVinci", "Leonardo da Vinci's work."]),
    ("what is the chemical symbol for gold", ["Au"], [
        "The chemical symbol for gold is Au.", "AU", "Its symbol is \"Au\".", "gold's symbol: au!", "Ag"]),
    ("who is the author of don quixote", ["Miguel de Cervantes", "Cervantes"], [
        "Don Quixote was written by Miguel de Cervantes Saavedra.", "Cervantes.", "Lope de Vega"]),
    ("what is the speed of light", ["299,792 km/s", "300,000 km/s"], [
        "Light travels at about 299,792 km/s in a vacuum.", "About 300 000 km/s.",
        "Roughly 299792 kilometers per second.", "300,000 km / s"]),
    ("what language is spoken in brazil", ["Portuguese"], [
        "Portuguese is the official language of Brazil.", "They speak Português.", "Spanish"]),
    ("what is the tallest mountain in the world", ["Mount Everest", "Everest", "Chomolungma"], [
        "Mount Everest, at 8,849 metres.", "Mt. Everest", "K2 is the tallest.", "Everest's peak"]),
    ("who was the first man on the moon", ["Neil Armstrong"], [
        "Neil Armstrong, in 1969.", "Neil A. Armstrong", "Buzz Aldrin", "neil armstrong!!!"]),
    ("which city hosted the 2008 summer olympics", ["Beijing", "北京"], [
        "The 2008 Summer Olympics were held in Beijing.", "北京", "在北京举行", "Peking"]),
    ("what is the capital of turkey", ["Ankara"], [
        "ANKARA", "İstanbul is the largest city, but the capital is Ankara.", "Istanbul"]),
    ("which greek letter comes after rho", ["Sigma", "Σ"], [
        "ΣΙΓΜΑ comes next.", "Σ", "σ", "sigma", "Tau"]),
    ("what does the fi ligature stand for", ["fi"], ["\ufb01", "The ligature ﬁ is 'fi'.", "f i"]),
    ("what is the full-width letter", ["ＡＢＣ", "ABC"], ["ＡＢＣ", "abc", "ａｂｃ"]),
    ("empty answer", [""], ["anything", ""]),
    ("emoji", ["👍"], ["I give it a 👍🏽!", "👍", "thumbs up"]),
    ("zero width", ["ice cream"], ["ice\u200bcream", "ice \u200b cream", "ICE CREAM"]),
    ("apostrophes", ["Rock 'n' Roll", "rock and roll"], ["Rock 'n' roll music", "Rock ’n’ Roll", "rock n roll"]),
    ("hyphen", ["Jean-Paul Sartre"], ["Jean Paul Sartre", "Jean-Paul Sartre", "jean–paul sartre"]),
    ("numbers", ["1/2", "one half"], ["It is ½.", "Half, 1/2.", "One-half", "1 / 2"]),
]


def write_qa(path):
    n = 0
    with open(path, "w", encoding="utf-8") as out:
        for qi, (question, refs, answers) in enumerate(QA):
            for ai, answer in enumerate(answers):
                for variant, rs in (("all", refs), ("first", refs[:1])):
                    if variant == "first" and len(refs) == 1:
                        continue
                    rec = {
                        "id": "qa/%02d/%02d/%s" % (qi, ai, variant),
                        "question": question,
                        "prediction": answer,
                        "references": rs,
                        "expected": {
                            "match": 1 if has_answer(rs, str(answer), s_tokenizer) else 0,
                            "prediction_tokens": s_tokenizer.tokenize(unicodedata.normalize("NFD", answer), uncased=True),
                        },
                        "reference": reference("qa_exact_match.py"),
                    }
                    out.write(json.dumps(rec, ensure_ascii=False) + "\n")
                    n += 1
    return n


# MMAU-style items: question, choices (the answer is one of them), model answers.
MC = [
    ("What is the primary sound source?", ["Dog barking", "Cat meowing", "Car horn", "Birds chirping"], "Dog barking", [
        "The primary sound source is a dog barking.", "Dog barking", "(A) Dog barking", "A dog.",
        "A dog barking, and a car horn in the background.", "Cat meowing", "dog-barking", "", "A",
        "I hear a barking dog."]),
    ("Which instrument plays the melody?", ["Piano", "Violin", "Acoustic guitar", "Electric guitar"], "Acoustic guitar", [
        "Acoustic guitar", "The melody is played on an acoustic guitar.", "guitar", "An electric guitar.",
        "Acoustic guitar (not electric guitar)", "ACOUSTIC GUITAR!"]),
    ("How many times does the bell ring?", ["1", "2", "3", "4"], "3", [
        "3", "The bell rings 3 times.", "Three times.", "It rings 3 times, not 4.", "3rd", "C. 3"]),
    ("What emotion does the speaker convey?", ["happy", "sad", "angry", "neutral"], "sad", [
        "The speaker sounds sad.", "Sad", "sad, maybe a bit angry", "The speaker is unhappy.", "sad_"]),
    ("What is the genre of the music?", ["Hip-hop", "Hip-hop and jazz", "Jazz", "Rock"], "Hip-hop", [
        "Hip-hop", "It is hip hop.", "Hip-hop and jazz", "hip-hop, with a jazz sample", "Rock"]),
    ("What is the gender of the speaker?", ["Male", "Female"], "Female", [
        "Female", "The speaker is a woman.", "female voice", "Male"]),
    ("Where was this recorded?", ["In a café", "In a park", "In a car"], "In a café", [
        "In a café", "In a cafe", "in a CAFÉ.", "Café", "In a park"]),
    ("Which language is spoken?", ["中文", "English", "日本語"], "中文", [
        "中文", "The speaker speaks 中文.", "日本語", "Chinese"]),
    ("Identify the sound.", ["Thunder", "Thunder and rain", "Rain"], "Thunder and rain", [
        "Thunder and rain", "Thunder", "rain and thunder", "It is thunder, and rain."]),
    ("Identical tokens", ["red car", "car red", "blue car"], "red car", ["red car", "car red", "a red car"]),
]


def write_mc(path):
    n = 0
    with open(path, "w", encoding="utf-8") as out:
        for qi, (question, choices, answer, predictions) in enumerate(MC):
            for pi, prediction in enumerate(predictions):
                rec = {
                    "id": "mmau/%02d/%02d" % (qi, pi),
                    "question": question,
                    "choices": choices,
                    "answer": answer,
                    "prediction": prediction,
                    "expected": {"match": 1 if string_match(answer, prediction, choices) else 0},
                    "reference": reference("string_match.py"),
                }
                out.write(json.dumps(rec, ensure_ascii=False) + "\n")
                n += 1
    return n


# Classification answers against UEA's labels (MELD, TESS, NSynth, GTZAN, VocalSound, ...).
PREFIX = [
    ("neutral", ["neutral", "Neutral.", " NEUTRAL ", "neutral, with a hint of joy", "The emotion is neutral.", "neu", ""]),
    ("joy", ["Joy", "joyful", "joy!", "sadness", "\tjoy\n"]),
    ("Synth Lead", ["synth lead", "Synth", "Synth Lead instrument", "synth  lead"]),
    ("hiphop", ["hiphop", "hip-hop", "Hiphop music", "HipHop"]),
    ("Throat clearing", ["throat clearing", "Throat-clearing", "Cough"]),
    ("Electric_shaver_toothbrush", ["electric_shaver_toothbrush", "Electric shaver"]),
    ("COVID-19", ["covid-19", "COVID-19 positive", "covid"]),
    ("present", ["Present", "presence", "absent"]),
    ("Major", ["major", "Major chord", "minor"]),
    ("7", ["7", "7.", "Seven", "70"]),
    ("İstanbul", ["i̇stanbul", "istanbul", "İSTANBUL"]),
    ("Straße", ["STRASSE", "straße", "Straße!"]),
    ("female", ["female", "Female.", "male", "fe"]),
]


def write_prefix(path):
    sys.path.insert(0, sys.argv[2])
    for m in [k for k in sys.modules if k.startswith("audio_evals")]:
        del sys.modules[m]
    from audio_evals.evaluator.base import PrefixMatch
    evaluator = PrefixMatch(ignore_case=True)
    base = os.path.join(sys.argv[2], "audio_evals", "evaluator", "base.py")
    ref = "OpenBMB/UltraEval-Audio@31b21cfba6a9517f0bb274f608092b810430f161:audio_evals/evaluator/base.py (sha256 %s); python %s" % (
        sha(base), sys.version.split()[0])
    n = 0
    with open(path, "w", encoding="utf-8") as out:
        for li, (label, predictions) in enumerate(PREFIX):
            for pi, prediction in enumerate(predictions):
                r = evaluator(prediction, label)
                out.write(json.dumps({"id": "prefix/%02d/%02d" % (li, pi), "prediction": prediction, "reference": label,
                                      "expected": {"match": r["match"], "pred": r["pred"]}, "provenance": ref},
                                     ensure_ascii=False) + "\n")
                n += 1
    return n


if __name__ == "__main__":
    print("qa_exist_match.jsonl", write_qa(os.path.join(HERE, "qa_exist_match.jsonl")))
    print("choice_strings_match.jsonl", write_mc(os.path.join(HERE, "choice_strings_match.jsonl")))
    print("prefix_match.jsonl", write_prefix(os.path.join(HERE, "prefix_match.jsonl")))
