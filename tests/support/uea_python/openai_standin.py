"""Writes a stand-in for the `openai` SDK (and the `azure.core.credentials` name UEA's GPT class imports beside
it) into OUT, for tests that run UltraEval-Audio's judges under UEA's own main.py and under aeval: Debian does
not package the SDK. `OpenAI().chat.completions.create(model=..., messages=..., **kwargs)` posts exactly those
fields as JSON to $OPENAI_BASE_URL/chat/completions with $OPENAI_API_KEY as the bearer token, as the SDK does,
and gives back the answer's choices as objects; `audio.transcriptions.create(model=..., file=...)` posts them as
multipart form data to $OPENAI_BASE_URL/audio/transcriptions and gives back the answer's `text`. Both runs go through it alike, so they agree only if UEA's code
takes the same path in both. Put OUT first on PYTHONPATH.

    python3 openai_standin.py OUT
"""
import os
import sys

FILES = {
    "openai/__init__.py": '''import os
from types import SimpleNamespace

import requests


def _post(path, **body):
    response = requests.post(os.environ["OPENAI_BASE_URL"].rstrip("/") + path, timeout=60,
                             headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"]}, **body)
    response.raise_for_status()
    return response.json()


class _Completions:
    def create(self, **fields):
        answer = _post("/chat/completions", json=fields)
        return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(**c["message"])) for c in answer["choices"]])


class _Transcriptions:
    def create(self, model, file, **fields):
        answer = _post("/audio/transcriptions", data={"model": model, **fields}, files={"file": file})
        return SimpleNamespace(text=answer["text"])


class OpenAI:
    def __init__(self, **options):
        self.chat = SimpleNamespace(completions=_Completions())
        self.audio = SimpleNamespace(transcriptions=_Transcriptions())


class AzureOpenAI(OpenAI):
    pass
''',
    "azure/__init__.py": "",
    "azure/core/__init__.py": "",
    "azure/core/credentials.py": '''class AzureKeyCredential:
    def __init__(self, key):
        self.key = key
''',
}


def main():
    out = sys.argv[1]
    for name, text in FILES.items():
        path = os.path.join(out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
