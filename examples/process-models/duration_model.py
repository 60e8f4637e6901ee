#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): a tiny rule-based classifier.

Standard library only. Reads the request's first audio file (16-bit WAV written by
aeval) and answers "short" (under 1 s), "medium" (under 3 s) or "long".
"""
import json
import sys
import wave


def duration(path):
    with wave.open(path) as w:
        return w.getnframes() / w.getframerate()


def main():
    print(json.dumps({"type": "ready", "model": "duration-rules 1.0"}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            seconds = duration(request["audio"][0])
            label = "short" if seconds < 1 else "medium" if seconds < 3 else "long"
            reply = {"type": "response", "id": request["id"], "text": label}
        except (IndexError, OSError, wave.Error) as error:
            reply = {"type": "error", "id": request["id"], "message": f"cannot read the audio: {error}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
