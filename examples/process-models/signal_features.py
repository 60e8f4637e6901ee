#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): a scoring model of plain signal features.

Standard library only, to show the scoring replies without a neural network; its numbers measure
loudness and texture, not quality or identity. `--answer` picks what it answers with:
  scores  {"rms_dbfs": ..., "peak_dbfs": ...} of the clip
  frames  an embedding of 25 ms frames x 3 features (log RMS, zero crossings, mean step), as a .npy
  vector  the mean of those frames (one row), as a .npy; a text request gets a 3-number
          vector from its letters, so the model also answers text like a joint embedder
Embeddings go to the request's `output_embedding` path, named in the reply.
"""
import argparse
import array
import json
import math
import struct
import sys
import wave


def samples_of(path):
    with wave.open(path) as w:
        if w.getsampwidth() != 2:
            raise ValueError("expects 16-bit WAV")
        data = array.array("h", w.readframes(w.getnframes()))
        return [x / 32768.0 for x in data], w.getframerate()


def frames_of(samples, rate):
    size = max(1, rate // 40)
    rows = []
    for start in range(0, max(1, len(samples) - size + 1), size):
        frame = samples[start:start + size] or [0.0]
        rms = math.sqrt(sum(x * x for x in frame) / len(frame))
        crossings = sum(1 for a, b in zip(frame, frame[1:]) if (a < 0) != (b < 0)) / len(frame)
        step = sum(abs(b - a) for a, b in zip(frame, frame[1:])) / len(frame)
        rows.append([math.log10(rms + 1e-9), crossings, step])
    return rows


def text_vector(text):
    letters = [c for c in text.lower() if c.isalpha()]
    vowels = sum(1 for c in letters if c in "aeiou")
    return [[math.log10(1 + len(letters)), vowels / max(1, len(letters)), text.count(" ") / max(1, len(text))]]


def write_npy(path, rows):
    header = "{'descr': '<f8', 'fortran_order': False, 'shape': (%d, %d), }" % (len(rows), len(rows[0]))
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        for row in rows:
            f.write(struct.pack("<%dd" % len(row), *row))


def answer(request, kind):
    if not request["audio"]:
        if kind != "vector":
            raise ValueError("a text request needs --answer vector")
        write_npy(request["output_embedding"], text_vector(request["fields"].get("text", "")))
        return {"embedding": request["output_embedding"]}
    samples, rate = samples_of(request["audio"][0])
    if kind == "scores":
        rms = math.sqrt(sum(x * x for x in samples) / max(1, len(samples)))
        peak = max((abs(x) for x in samples), default=0.0)
        return {"scores": {"rms_dbfs": 20 * math.log10(rms + 1e-9), "peak_dbfs": 20 * math.log10(peak + 1e-9)}}
    rows = frames_of(samples, rate)
    if kind == "vector":
        rows = [[sum(column) / len(rows) for column in zip(*rows)]]
    write_npy(request["output_embedding"], rows)
    return {"embedding": request["output_embedding"]}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--answer", choices=["scores", "frames", "vector"], required=True)
    kind = parser.parse_args().answer
    print(json.dumps({"type": "ready", "model": f"signal-features 1.0 ({kind})"}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            reply = {"type": "response", "id": request["id"], **answer(request, kind)}
        except (OSError, ValueError, wave.Error) as error:
            reply = {"type": "error", "id": request["id"], "message": f"cannot score: {error}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
