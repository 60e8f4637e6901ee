"""Adds to a tree made by standin_tree.py what a test of UltraEval-Audio's MiniMax TTS scoring needs: a TTS model
of ours, a small set of texts, and UEA's own `seed-tts-whisper` entry (its SeedTTSWhisperModel class, @isolated)
hearing with a script of ours in place of Whisper:

  OUT/uea/audio_evals/lib/whisper/seed_tts_eval.py   the script SeedTTSWhisperModel starts, replaced: it speaks the
                                                     real script's line protocol (a request "<uid>->{json}", the
                                                     answer "<uid>-><transcript>", then "<uid>->close" back), logs
                                                     each request with the audio's sha256 to OUT/whisper/requests.log
                                                     and "hears" the text the TTS stand-in wrote into the WAV, with
                                                     Whisper's leading space, mishearing the last word of a text with
                                                     an odd number of words
  OUT/uea/audio_evals/lib/whisper/requirements.txt   aeval-standin-dep==1.0 (the wheelhouse's), which the script imports
  OUT/uea/registry/model/whisper.yaml                seed-tts-whisper's path: OUT/whisper, env_path: envs/whisper-standin
  OUT/uea/audio_evals/models/standin_tts.py          a user's TTS class (UEA's Model): the prompt's text as a WAV in
                                                     OUT/tts/, answered as {"audio": path, "text": ...} as UEA's TTS
                                                     models answer
  OUT/uea/registry/model/standin-tts.yaml            tts-standin, that class
  OUT/uea/registry/dataset/minimax-standin.yaml      minimax-standin (and minimax-standin-lang, whose rows also carry
                                                     MiniMaxTTSDataset's `language`): JsonlFile sets of OUT/minimax*.jsonl,
                                                     German texts and one English, each with a voice clip and its text,
                                                     ref_col WavPath and default task minimax_tts_de, as UEA's MiniMax
                                                     sets
  OUT/python/jiwer/__init__.py                       a stand-in for jiwer (which Debian lacks): compute_measures(truth,
                                                     hypothesis)["wer"] after jiwer's default transform (runs of spaces
                                                     collapsed, stripped, split on spaces), word-level Levenshtein
                                                     edits over the reference's words; ValueError for an empty
                                                     reference. Put OUT/python first on PYTHONPATH for UEA's main.py.

    python3 whisper_standin.py OUT
"""
import json
import os
import sys

SCRIPT = '''# A stand-in for the script of UltraEval-Audio's SeedTTSWhisperModel (audio_evals/lib/whisper/seed_tts_eval.py):
# the same arguments and line protocol, the transcript read from the WAV the TTS stand-in wrote (its 16-bit
# samples are the text's UTF-8 bytes times 64, then silence), each request logged.
import argparse, hashlib, json, os, sys, wave
import aeval_standin_dep  # installed into the environment from requirements.txt

parser = argparse.ArgumentParser()
parser.add_argument("--path", required=True)
parser.add_argument("--chunk_size", type=int, default=0)
config = parser.parse_args()
log = open(os.path.join(config.path, "requests.log"), "a")
print("Whisper stand-in loaded from {}".format(config.path), file=sys.stderr, flush=True)


def heard(path):
    with wave.open(path, "rb") as w:
        frames = w.readframes(w.getnframes())
    codes = [int.from_bytes(frames[k:k + 2], "little", signed=True) // 64 for k in range(0, len(frames), 2)]
    text = bytes(c for c in codes if c > 0).decode("utf-8")
    words = text.split(" ")
    if len(words) % 2 == 1:
        words[-1] = "Banane"
    return " " + " ".join(words)


for line in sys.stdin:
    anchor = line.find("->")
    if anchor == -1:
        print("Error: Invalid conversation format, must contains  ->, but {}".format(line.strip()), flush=True)
        continue
    prefix, body = line[:anchor].strip() + "->", line[anchor + 2:].strip()
    if body == "close":
        continue
    try:
        x = json.loads(body)
        digest = hashlib.sha256(open(x["audio"], "rb").read()).hexdigest()
        log.write(json.dumps({"request": x, "audio_sha256": digest, "chunk_size": config.chunk_size},
                             sort_keys=True) + "\\n")
        log.flush()
        print(prefix + heard(x["audio"]), flush=True)
    except Exception as e:
        print("Error: {}".format(e), flush=True)
'''

TTS_MODEL = '''# A user's TTS model (UltraEval-Audio's Model): the prompt's text written into a WAV, whose path it answers.
import hashlib
import json
import os
import struct
import wave

from audio_evals.models.model import Model


class StandinTTS(Model):
    def __init__(self, out_dir: str, sample_params=None):
        super().__init__(is_chat=True, sample_params=sample_params)
        self.out_dir = out_dir

    def _inference(self, prompt, **kwargs):
        text = prompt["text"]
        os.makedirs(self.out_dir, exist_ok=True)
        path = os.path.join(self.out_dir, hashlib.sha256(text.encode("utf-8")).hexdigest()[:16] + ".wav")
        with wave.open(path, "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(16000)
            w.writeframes(b"".join(struct.pack("<h", 64 * b) for b in text.encode("utf-8")) + bytes(3200))
        return json.dumps({"audio": path, "text": text, "voice": os.path.basename(prompt["prompt_audio"])})
'''

JIWER = '''"""A stand-in for jiwer (Debian lacks it): compute_measures with jiwer's default transform and word-level
Levenshtein edits, which is all UltraEval-Audio's SeedTTSEvalASRWER asks of it."""


def _words(text):
    return [w for w in " ".join(text.split(" ")).strip().split(" ") if w]


def compute_measures(truth, hypothesis, **unused):
    if unused:
        raise NotImplementedError("jiwer stand-in: " + ", ".join(unused))
    if truth == "":
        raise ValueError("one or more groundtruths are empty strings")
    ref, hyp = _words(truth), _words(hypothesis)
    if not ref:
        raise ValueError("truth should be a list of list of strings after transform which are non-empty")
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        previous, row = row, [i] + [0] * len(hyp)
        for j, h in enumerate(hyp, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (r != h))
    return {"wer": row[-1] / len(ref)}


def wer(*unused, **more):  # UEA imports them; this test's runs must not use them
    raise NotImplementedError("jiwer stand-in: wer")


def cer(*unused, **more):
    raise NotImplementedError("jiwer stand-in: cer")
'''

# German texts (and one English), with punctuation and case the evaluator normalizes away.
TEXTS = [("Guten Morgen, liebe Freunde.", "german"), ("Das Wetter ist heute schön!", "german"),
         ("Ich trinke gern Kaffee am Abend.", "german"), ("Where is the train station?", "english"),
         ("Wir sehen uns morgen.", "german")]


def main():
    out = os.path.abspath(sys.argv[1])
    uea = os.path.join(out, "uea")
    lib = os.path.join(uea, "audio_evals", "lib", "whisper")
    with open(os.path.join(lib, "seed_tts_eval.py"), "w") as f:
        f.write(SCRIPT)
    with open(os.path.join(lib, "requirements.txt"), "w") as f:
        f.write("aeval-standin-dep==1.0\n")
    os.makedirs(os.path.join(out, "whisper"), exist_ok=True)
    registry = os.path.join(uea, "registry", "model", "whisper.yaml")
    text = open(registry).read()
    entry = ("seed-tts-whisper:\n  class: audio_evals.models.whisper.SeedTTSWhisperModel\n  args:\n"
             "    path: openai/whisper-large-v3\n    env_path: envs/whisper\n")
    assert text.count(entry) == 1, "UEA's seed-tts-whisper entry is not as this script expects"
    text = text.replace(entry, entry.replace("openai/whisper-large-v3", os.path.join(out, "whisper"))
                        .replace("envs/whisper", "envs/whisper-standin"))
    with open(registry, "w") as f:
        f.write(text)
    with open(os.path.join(uea, "audio_evals", "models", "standin_tts.py"), "w") as f:
        f.write(TTS_MODEL)
    with open(os.path.join(uea, "registry", "model", "standin-tts.yaml"), "w") as f:
        f.write(f"tts-standin:\n  class: audio_evals.models.standin_tts.StandinTTS\n  args:\n"
                f"    out_dir: {os.path.join(out, 'tts')}\n")
    with open(os.path.join(out, "minimax.jsonl"), "w") as plain, open(os.path.join(out, "minimax-lang.jsonl"), "w") as lang:
        for k, (sentence, language) in enumerate(TEXTS):
            row = {"WavPath": os.path.join(out, "clips", f"c{k}.wav"), "prompt_text": f"Voice {k} says hello.",
                   "text": sentence}
            plain.write(json.dumps(row, ensure_ascii=False) + "\n")
            lang.write(json.dumps({**row, "language": language}, ensure_ascii=False) + "\n")
    with open(os.path.join(uea, "registry", "dataset", "minimax-standin.yaml"), "w") as f:
        for name, data in (("minimax-standin", "minimax.jsonl"), ("minimax-standin-lang", "minimax-lang.jsonl")):
            f.write(f"{name}:\n  class: audio_evals.dataset.dataset.JsonlFile\n  args:\n    default_task: minimax_tts_de\n"
                    f"    f_name: {os.path.join(out, data)}\n    ref_col: WavPath\n")
    os.makedirs(os.path.join(out, "python", "jiwer"), exist_ok=True)
    with open(os.path.join(out, "python", "jiwer", "__init__.py"), "w") as f:
        f.write(JIWER)


if __name__ == "__main__":
    main()
