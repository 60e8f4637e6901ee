#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): answers each request with its text.

Standard library only. Text parts of the last user message (or the fields, for a
non-chat prompt) are joined with spaces and sent back. Two words make it misbehave on
purpose, for tests of aeval's fault handling:
  CRASH  - writes a line to stderr and exits with status 3
  KILL9  - kills itself with SIGKILL
"""
import json
import os
import signal
import sys


def text_of(request):
    for message in reversed(request.get("messages", [])):
        if message.get("role") == "user":
            return " ".join(part["text"] for part in message["content"] if part.get("type") == "text")
    return " ".join(str(value) for value in request.get("fields", {}).values())


def main():
    print(json.dumps({"type": "ready", "model": "echo 1.0", "python": sys.prefix}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        text = text_of(request)
        if "CRASH" in text:
            print(f"crashing on purpose at request {request['id']}", file=sys.stderr, flush=True)
            sys.exit(3)
        if "KILL9" in text:
            os.kill(os.getpid(), signal.SIGKILL)
        if "REFUSE" in text:
            reply = {"type": "error", "id": request["id"], "message": "refused on purpose"}
        else:
            reply = {"type": "response", "id": request["id"], "text": text}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
