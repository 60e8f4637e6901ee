#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): Paraformer-zh speech recognition with FunASR.

Answers every audio request with {"text": transcript}. Audio comes at 16 kHz (the entry's
input_sample_rate: 16000), 16-bit mono WAV.

  --model           ModelScope / Hugging Face id or local folder (default
                    iic/speech_seaco_paraformer_large_asr_nat-zh-cn-16k-common-vocab8404-pytorch,
                    the model FunASR's name "paraformer-zh" stands for, which Seed-TTS-Eval loads
                    with `AutoModel(model="paraformer-zh")`)
  --model-revision  the model's revision on the hub (default master, what FunASR fetches for
                    "paraformer-zh" when no revision is given, as in Seed-TTS-Eval; name a tag such
                    as v2.0.4 to pin it)
  --hub             ms (ModelScope, default) or hf (Hugging Face)
  --device          auto (cuda:0 when available), cpu, cuda:N
  --batch-size-s    FunASR's batch_size_s (default 300, as Seed-TTS-Eval)

As Seed-TTS-Eval's run_wer.py, the model runs alone (no VAD, no punctuation model) and each
clip's WAV path is handed to `model.generate(input=path, batch_size_s=300)`; the reply is
`res[0]["text"]` unchanged. Seed-TTS-Eval then converts it to simplified characters (zhconv
zh-cn) and strips punctuation: in aeval that is the evaluator's normalizer chain
(to-simplified, seed-tts-punctuation, tokenize-char), not this script.

Expected failures (FunASR missing, weights neither cached nor downloadable) end the process
with status 2 and one line on stderr starting "paraformer_asr.py:".
"""
import argparse
import json
import os
import sys
import tempfile
import wave

SCRIPT = os.path.basename(__file__)
RATE = 16000
DEFAULT_MODEL = "iic/speech_seaco_paraformer_large_asr_nat-zh-cn-16k-common-vocab8404-pytorch"


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
        import funasr
        from funasr import AutoModel
    except ImportError as error:
        channel.fail(missing_library(error))
    np = numpy
    device = args.device
    if device == "auto":
        device = "cuda:0" if torch.cuda.is_available() else "cpu"
    try:
        model = AutoModel(model=args.model, model_revision=args.model_revision, hub=args.hub, device=device,
                          disable_update=True, disable_pbar=True, disable_log=True)
    except Exception as error:
        # FunASR reports a failed download on stdout and goes on; that line says more than the error
        download = [line.strip() for line in channel.held_lines() if line.startswith("Download:")]
        if download:
            error = download[-1]
        where = "ModelScope (MODELSCOPE_CACHE)" if args.hub == "ms" else "the Hugging Face cache (HF_HOME)"
        detail = error if isinstance(error, str) else describe(error, 200)
        channel.fail(f"cannot load {args.model} (no network or no local copy): {detail[:300]}: with "
                     f"network access the weights download from {where}, or pass --model "
                     f"/path/to/a/local/copy")
    identity = f"{args.model} {args.model_revision} (funasr {funasr.__version__}, no VAD, no punctuation)"
    return model, identity


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default=DEFAULT_MODEL, help="hub id or local folder")
    parser.add_argument("--model-revision", default="master")
    parser.add_argument("--hub", default="ms", choices=["ms", "hf"])
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda:N")
    parser.add_argument("--batch-size-s", type=int, default=300)
    args = parser.parse_args()

    channel = Channel()
    model, identity = channel.load_with(load, args, channel)

    def answer(request):
        audio = request.get("audio") or []
        if not audio:
            raise ValueError("the request has no audio")
        read_wav(audio[0], RATE)  # checks the file before FunASR (which takes a missing path for text)
        result = model.generate(input=audio[0], batch_size_s=args.batch_size_s)
        if not result:
            raise RuntimeError("FunASR returned no result")
        return {"text": str(result[0].get("text", ""))}

    channel.send({"type": "ready", "model": identity})
    serve(channel, answer)


if __name__ == "__main__":
    main()
