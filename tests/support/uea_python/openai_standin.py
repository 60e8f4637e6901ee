"""Writes a stand-in for the `openai` SDK (and the `azure.core.credentials` name UEA's GPT class imports beside
it) into OUT, for tests that run UltraEval-Audio's judges under UEA's own main.py and under aeval: Debian does
not package the SDK. `OpenAI().chat.completions.create(model=..., messages=..., **kwargs)` posts exactly those
fields as JSON to $OPENAI_BASE_URL/chat/completions with $OPENAI_API_KEY as the bearer token, as the SDK does,
and gives back the answer's choices as objects. Both runs go through it alike, so they agree only if UEA's code
takes the same path in both. Put OUT first on PYTHONPATH.

    python3 openai_standin.py OUT
"""
import os
import sys

FILES = {
    "openai/__init__.py": '''import os
from types import SimpleNamespace

import requests


class _Completions:
    def create(self, **fields):
        response = requests.post(os.environ["OPENAI_BASE_URL"].rstrip("/") + "/chat/completions", json=fields,
                                 headers={"Authorization": "Bearer " + os.environ["OPENAI_API_KEY"]}, timeout=60)
        response.raise_for_status()
        choices = [SimpleNamespace(message=SimpleNamespace(**choice["message"])) for choice in response.json()["choices"]]
        return SimpleNamespace(choices=choices)


class OpenAI:
    def __init__(self, **options):
        self.chat = SimpleNamespace(completions=_Completions())


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
