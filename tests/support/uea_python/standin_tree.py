"""Makes a copy of UltraEval-Audio's tree for tests that run one of UEA's real model classes (MiniCPMo, the
@isolated class of the MiniCPMo2_6-audio entry) with a script of our own in place of the model:

  OUT/uea/                      ../shared/uea, with
    audio_evals/lib/minicpm/main.py           a stand-in speaking the real script's line protocol: it answers
                                              from OUT/weights/answers.json by the audio's sha256, logs each
                                              request it gets to OUT/weights/requests.log, and exits with
                                              status 3 when the answer is CRASH
    audio_evals/lib/minicpm/requirements.txt  aeval-standin-dep==1.0, which the script imports
    registry/model/standin.yaml               minicpm-standin: the MiniCPMo2_6-audio entry with local weights
    registry/dataset/standin.yaml             standin-set: a JsonlFile of OUT/data.jsonl (task asr)
    audio_evals/evaluator/standin_length.py   a user's evaluator class (UEA's Evaluator), entry answer-length
    audio_evals/models/standin_api.py         a user's APIModel class posting each prompt to a service (its url: the
                                              entry the test writes)
    registry/dataset/standin.yaml             also standin-relative: a RelativePath of OUT/relative.jsonl
  OUT/wheelhouse/               the wheel of aeval-standin-dep (install with PIP_NO_INDEX=1 PIP_FIND_LINKS=...)
  OUT/clips/*.wav, OUT/data.jsonl, OUT/weights/answers.json

    python3 standin_tree.py SHARED_DIR OUT [--crash N]
"""
import argparse
import base64
import hashlib
import json
import math
import os
import shutil
import struct
import wave
import zipfile

REFERENCES = ["the cat sat on the mat", "hello world", "a quick brown fox jumps", "speech is silver",
              "one two three four", "good morning"]

SCRIPT = '''# A stand-in for MiniCPM-o 2.6's script (audio_evals/lib/minicpm/main.py): the same protocol on its standard
# input and output (a request "<uid>->{json}", an answer "<uid>->{\\"text\\": ...}", then "<uid>->close"),
# answers from a table keyed by the audio's sha256, each request logged.
import argparse, hashlib, json, os, sys
import aeval_standin_dep  # installed into the environment from requirements.txt

parser = argparse.ArgumentParser()
parser.add_argument("--path", required=True)
parser.add_argument("--speech", action="store_true")
config = parser.parse_args()
answers = json.load(open(os.path.join(config.path, "answers.json")))
log = open(os.path.join(config.path, "requests.log"), "a")
# Progress goes to stderr: UEA's class reads stdout line by line with select, and a line printed before the
# answer can sit in its buffer unseen.
print("Model loaded from checkpoint: {}".format(config.path), file=sys.stderr, flush=True)
for line in sys.stdin:
    anchor = line.find("->")
    prefix, body = line[:anchor].strip() + "->", line[anchor + 2:].strip()
    if body == "close":
        continue
    conversation = json.loads(body)
    prompt = conversation.pop("prompt")
    audio = [c["value"] for m in prompt for c in m["contents"] if c["type"] == "audio"]
    digest = hashlib.sha256(open(audio[0], "rb").read()).hexdigest()
    log.write(json.dumps({"prompt": prompt, "params": conversation, "audio_sha256": digest}) + "\\n")
    log.flush()
    answer = answers.get(digest, "")
    if answer == "CRASH":
        os._exit(3)
    print(prefix + json.dumps({"text": json.dumps({"content": answer})}), flush=True)
'''


EVALUATOR = '''# A user's evaluator, written as UltraEval-Audio's docs describe: the answer's length and its ratio to the reference's.
from audio_evals.evaluator.base import Evaluator


class AnswerLength(Evaluator):
    def __init__(self, unit: str = "word"):
        self.unit = unit

    def _eval(self, pred, label, **kwargs):
        words = str(pred).split() if self.unit == "word" else list(str(pred))
        return {"length": len(words), "ratio": len(words) / max(1, len(str(label).split())), "speaker": kwargs["speaker"]}
'''


API_MODEL = '''# A user's model deployed as a service, written as UltraEval-Audio's docs describe (an APIModel subclass).
import requests

from audio_evals.models.model import APIModel


class StandinService(APIModel):
    def __init__(self, url: str, sample_params=None):
        super().__init__(is_chat=True, sample_params=sample_params)
        self.url = url

    def _inference(self, prompt, **kwargs):
        reply = requests.post(self.url, json={"prompt": prompt, "params": kwargs}, timeout=60)
        reply.raise_for_status()
        return reply.json()["answer"]
'''


def write_tone(path, frequency):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * frequency * t / 16000)))
                               for t in range(8000)))


def write_wheel(folder):
    name, version = "aeval_standin_dep", "1.0"
    files = {f"{name}/__init__.py": "LOADED = True\n",
             f"{name}-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: aeval-standin-dep\nVersion: {version}\n",
             f"{name}-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: aeval-tests\nRoot-Is-Purelib: true\n"
                                                  "Tag: py3-none-any\n"}
    record = []
    for member, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{member},sha256={digest},{len(text.encode())}")
    files[f"{name}-{version}.dist-info/RECORD"] = "\n".join(record + [f"{name}-{version}.dist-info/RECORD,,"]) + "\n"
    os.makedirs(folder, exist_ok=True)
    with zipfile.ZipFile(os.path.join(folder, f"{name}-{version}-py3-none-any.whl"), "w") as wheel:
        for member, text in files.items():
            wheel.writestr(member, text)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("shared")
    parser.add_argument("out")
    parser.add_argument("--crash", type=int, default=-1, help="the clip whose answer makes the script exit")
    options = parser.parse_args()
    out = os.path.abspath(options.out)
    uea = os.path.join(out, "uea")
    shutil.copytree(os.path.join(options.shared, "uea"), uea)
    lib = os.path.join(uea, "audio_evals", "lib", "minicpm")
    with open(os.path.join(lib, "main.py"), "w") as f:
        f.write(SCRIPT)
    with open(os.path.join(lib, "requirements.txt"), "w") as f:
        f.write("aeval-standin-dep==1.0\n")
    write_wheel(os.path.join(out, "wheelhouse"))
    os.makedirs(os.path.join(out, "clips"))
    os.makedirs(os.path.join(out, "weights"))
    answers, rows = {}, []
    for k, reference in enumerate(REFERENCES):
        clip = os.path.join(out, "clips", f"c{k}.wav")
        write_tone(clip, 300 + 40 * k)
        digest = hashlib.sha256(open(clip, "rb").read()).hexdigest()
        # Every other answer has a word wrong, so the WER is no trivial 0.
        answers[digest] = "CRASH" if k == options.crash else (reference if k % 2 == 0 else reference.replace(" ", " big ", 1))
        rows.append({"WavPath": clip, "text": reference, "speaker": f"s{k % 2}"})
    with open(os.path.join(out, "weights", "answers.json"), "w") as f:
        json.dump(answers, f)
    with open(os.path.join(out, "data.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    with open(os.path.join(uea, "registry", "model", "standin.yaml"), "w") as f:
        f.write("minicpm-standin:\n  class: audio_evals.models.mini_cpm.MiniCPMo\n  args:\n"
                f"    path: {os.path.join(out, 'weights')}\n    speech: false\n    env_path: envs/minicpm-standin\n"
                "    requirements_path: audio_evals/lib/minicpm/requirements.txt\n"
                "    sample_params:\n      sampling: false\n      num_beams: 5\n      max_new_tokens: 128\n")
    with open(os.path.join(uea, "audio_evals", "evaluator", "standin_length.py"), "w") as f:
        f.write(EVALUATOR)
    with open(os.path.join(uea, "registry", "evaluator", "standin.yaml"), "w") as f:
        f.write("answer-length:\n  class: audio_evals.evaluator.standin_length.AnswerLength\n  args:\n    unit: word\n")
    with open(os.path.join(uea, "audio_evals", "models", "standin_api.py"), "w") as f:
        f.write(API_MODEL)
    with open(os.path.join(out, "relative.jsonl"), "w") as f:  # paths relative to the prefix, one that names nothing
        for k, row in enumerate(rows):
            f.write(json.dumps({**row, "WavPath": os.path.basename(row["WavPath"]), "note": "not-a-file.wav"}) + "\n")
    with open(os.path.join(uea, "registry", "dataset", "standin.yaml"), "w") as f:
        f.write("standin-set:\n  class: audio_evals.dataset.dataset.JsonlFile\n  args:\n    default_task: asr\n"
                f"    f_name: {os.path.join(out, 'data.jsonl')}\n    ref_col: text\n")
        f.write("standin-relative:\n  class: audio_evals.dataset.dataset.RelativePath\n  args:\n    default_task: asr\n"
                f"    f_name: {os.path.join(out, 'relative.jsonl')}\n    ref_col: text\n"
                f"    file_path_prefix: {os.path.join(out, 'clips')}\n")


if __name__ == "__main__":
    main()
