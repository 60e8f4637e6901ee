#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): a speech codec in the standard library.

G.711-style telephone coding, 64 kbit/s: the 16 kHz input is low-passed and decimated to 8 kHz,
each sample is companded with the mu-law curve (mu = 255) and quantised to 8 bits, then decoded and
brought back to 16 kHz by linear interpolation. The reconstruction goes to the WAV file the request
names in "output_audio", and the answer points at it, so aeval scores it like a built-in codec.
"""
import array
import json
import math
import sys
import wave

MU = 255.0
LEVELS = 127  # 7 bits of magnitude + 1 sign bit


def read_pcm16(path):
    with wave.open(path) as w:
        if w.getsampwidth() != 2 or w.getnchannels() != 1:
            raise ValueError("expected 16-bit mono WAV")
        samples = array.array("h", w.readframes(w.getnframes()))
        return [s / 32768.0 for s in samples], w.getframerate()


def write_pcm16(path, samples, rate):
    pcm = array.array("h", (max(-32768, min(32767, round(s * 32768.0))) for s in samples))
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.tobytes())


def mulaw_roundtrip(x):
    magnitude = math.log1p(MU * min(abs(x), 1.0)) / math.log1p(MU)
    code = round(magnitude * LEVELS)  # what would travel: 8 bits with the sign
    return math.copysign(math.expm1(code / LEVELS * math.log1p(MU)) / MU, x)


def encode_decode(samples):
    # Half-band smoothing [1, 2, 1] / 4 before keeping every other sample.
    padded = [samples[0]] + samples + [samples[-1]]
    narrow = [(padded[i] + 2 * padded[i + 1] + padded[i + 2]) / 4 for i in range(0, len(samples), 2)]
    coded = [mulaw_roundtrip(s) for s in narrow]
    out = []
    for i in range(len(samples)):
        k, odd = divmod(i, 2)
        nxt = coded[min(k + 1, len(coded) - 1)]
        out.append((coded[k] + nxt) / 2 if odd else coded[k])
    return out


def main():
    print(json.dumps({"type": "ready", "model": "mulaw-64k 1.0"}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            samples, rate = read_pcm16(request["audio"][0])
            if rate != 16000:
                raise ValueError(f"expected 16 kHz input, got {rate} Hz")
            if not samples:
                raise ValueError("empty audio")
            write_pcm16(request["output_audio"], encode_decode(samples), rate)
            reply = {"type": "response", "id": request["id"], "audio": request["output_audio"]}
        except (IndexError, KeyError, OSError, ValueError, wave.Error) as error:
            reply = {"type": "error", "id": request["id"], "message": f"cannot code the audio: {error}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
