#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): UTMOS22 strong learner, as packaged by tarepan/SpeechMOS.

Answers every audio request with {"scores": {"mos": value}}: the predicted naturalness MOS
(1 to 5 scale) of the clip. Audio comes at 16 kHz (the entry's input_sample_rate: 16000),
16-bit mono WAV, scaled to [-1, 1) as int16 / 32768.

  --repo    torch.hub repository (default tarepan/SpeechMOS:v1.2.0), or a local clone with
            --source local
  --source  github (default) or local
  --device  auto (cuda when available), cpu, cuda, cuda:N

The model is `torch.hub.load(repo, "utmos22_strong", trust_repo=True)`, called as
`predictor(wave, 16000)` on one clip at a time (batch of one, so no padding enters the score).
Its weights (SpeechMOS' release utmos22_strong_step7459_v1.pt, converted from the official
sarulab-speech/UTMOS22 strong-learner checkpoint, MIT) are cached by torch.hub under
$TORCH_HOME/hub (default ~/.cache/torch/hub): once there, the script runs offline.

Expected failures (torch missing, repository or weights neither cached nor downloadable) end the
process with status 2 and one line on stderr starting "utmos.py:".
"""
import argparse
import json
import os
import sys
import tempfile
import wave

SCRIPT = os.path.basename(__file__)
RATE = 16000


# ----------------------------------------------------------------------------- protocol plumbing
class Channel:
    """NDJSON replies go to the real standard output; anything else the process or its libraries
    print (Python or C level) is sent to standard error, so it cannot break the protocol."""

    def __init__(self):
        sys.stdout.flush()
        self._out = os.fdopen(os.dup(1), "w", encoding="utf-8")
        self._err = os.dup(2)
        os.dup2(2, 1)
        self._capture = None

    def send(self, message):
        print(json.dumps(message, ensure_ascii=False), file=self._out, flush=True)

    def hold_output(self):
        """While loading, keep what libraries print, so that a failure is reported in one line."""
        sys.stdout.flush()
        sys.stderr.flush()
        self._capture = tempfile.TemporaryFile()
        os.dup2(self._capture.fileno(), 1)
        os.dup2(self._capture.fileno(), 2)

    def release_output(self):
        """Loading went well: what it printed goes to stderr (aeval's run log)."""
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(self._err, 2)
        os.dup2(self._err, 1)
        if self._capture is not None:
            self._capture.seek(0)
            held = self._capture.read()
            self._capture.close()
            self._capture = None
            if held:
                sys.stderr.buffer.write(held)
                sys.stderr.flush()

    def held_lines(self):
        """What loading has printed so far (for a failure message)."""
        if self._capture is None:
            return []
        sys.stdout.flush()
        sys.stderr.flush()
        with open(self._capture.fileno(), "rb", closefd=False) as f:
            f.seek(0)
            return f.read().decode("utf-8", "replace").splitlines()

    def load_with(self, loader, *args):
        """Run the loader with library output held; an unexpected exception is still one line."""
        self.hold_output()
        try:
            result = loader(*args)
        except Exception as error:
            self.fail(f"failed while loading: {describe(error)}")
        self.release_output()
        return result

    def fail(self, message):
        """An expected failure: one line on stderr, exit status 2, nothing else printed."""
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        line = SCRIPT + ": " + " ".join(str(message).split()) + "\n"
        os.write(self._err, line.encode("utf-8", "replace"))
        os._exit(2)


def describe(error, limit=300):
    text = " ".join(str(error).split())
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def missing_library(error):
    name = getattr(error, "name", None) or str(error)
    stem = os.path.splitext(SCRIPT)[0]
    return (f"cannot import {name} ({describe(error, 120)}): install the pinned packages with "
            f"`pip install -r {stem}.requirements.txt` (aeval builds that environment when the entry "
            f"names it under `requirements:`)")


def offline_note():
    flags = [v for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
             if os.environ.get(v, "").lower() in ("1", "true", "yes", "on")]
    return f"{'/'.join(flags)} set and no local copy" if flags else "no network or no local copy"


def read_wav(path, rate):
    with wave.open(path, "rb") as w:
        if w.getsampwidth() != 2:
            raise ValueError(f"{path}: expects 16-bit PCM WAV, got {8 * w.getsampwidth()}-bit")
        if w.getframerate() != rate:
            raise ValueError(f"{path}: audio at {w.getframerate()} Hz, this model takes {rate} Hz "
                             f"(set the entry's input_sample_rate: {rate})")
        channels = w.getnchannels()
        data = np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").astype(np.float32) / 32768.0
    if channels > 1:
        data = data.reshape(-1, channels).mean(axis=1)
    if data.size == 0:
        raise ValueError(f"{path}: the clip has no samples")
    return data


def serve(channel, answer):
    for line in iter(sys.stdin.readline, ""):
        line = line.strip()
        if not line:
            continue
        try:
            request = json.loads(line)
        except ValueError as error:
            print(f"{SCRIPT}: ignoring a line that is not JSON ({error})", file=sys.stderr, flush=True)
            continue
        if not isinstance(request, dict) or request.get("type", "request") != "request":
            print(f"{SCRIPT}: ignoring a message that is not a request", file=sys.stderr, flush=True)
            continue
        rid = request.get("id")
        try:
            reply = {"type": "response", "id": rid, **answer(request)}
        except Exception as error:  # one bad request must not end the process
            reply = {"type": "error", "id": rid, "message": f"{SCRIPT}: {describe(error)}"}
        channel.send(reply)


def pick_device(torch, name):
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return name


# ----------------------------------------------------------------------------- the model
np = None


def load(args, channel):
    global np
    try:
        import numpy
        import torch
        import torchaudio  # noqa: F401  (SpeechMOS' hubconf depends on it)
    except ImportError as error:
        channel.fail(missing_library(error))
    np = numpy
    device = pick_device(torch, args.device)
    try:
        predictor = torch.hub.load(args.repo, "utmos22_strong", source=args.source, trust_repo=True)
        predictor.to(device).eval()
    except Exception as error:
        hub = torch.hub.get_dir()
        channel.fail(f"cannot load utmos22_strong from {args.repo} (no network or nothing cached under "
                     f"{hub}): {describe(error, 200)}: run once with network access so torch.hub caches the "
                     f"repository and its weights (TORCH_HOME), or pass --source local --repo "
                     f"/path/to/a/SpeechMOS/clone with the weights in {hub}/checkpoints")
    identity = f"utmos22_strong ({args.repo}, torch {torch.__version__})"
    return torch, predictor, device, identity


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", default="tarepan/SpeechMOS:v1.2.0", help="torch.hub repo or local clone")
    parser.add_argument("--source", default="github", choices=["github", "local"])
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    args = parser.parse_args()

    channel = Channel()
    torch, predictor, device, identity = channel.load_with(load, args, channel)

    def answer(request):
        audio = request.get("audio") or []
        if not audio:
            raise ValueError("the request has no audio")
        wave_ = torch.from_numpy(read_wav(audio[0], RATE)).unsqueeze(0).to(device)
        with torch.no_grad():
            try:
                score = predictor(wave_, RATE)
            except TypeError:  # SpeechMOS before v1.1 took the wave alone, at 16 kHz
                score = predictor(wave_)
        value = float(score.reshape(-1)[0].item())
        if value != value:
            raise ValueError("the model returned NaN")
        return {"scores": {"mos": value}}

    channel.send({"type": "ready", "model": identity})
    serve(channel, answer)


if __name__ == "__main__":
    main()
