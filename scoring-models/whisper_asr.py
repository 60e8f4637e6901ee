#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): Whisper speech recognition with Hugging Face transformers.

Answers every audio request with {"text": transcript}. Audio comes at 16 kHz (the entry's
input_sample_rate: 16000), 16-bit mono WAV.

  --model     Hugging Face id or local folder (default openai/whisper-large-v3)
  --language  english / chinese / any Whisper language name or code, forced as the decoder's
              language token (Seed-TTS-Eval forces "english" for its English set); "auto" forces
              none, so Whisper detects the language per clip (UltraEval-Audio's spoken-answer ASR)
  --device    auto (cuda when available), cpu, cuda, cuda:1, ...
  --dtype     float32 (default, as Seed-TTS-Eval runs it), float16, bfloat16
  --long-form sequential (default): a clip over 30 s is decoded with transformers' sequential
              long-form decoding; truncate: every clip is cut to its first 30 s, which is what
              Seed-TTS-Eval's run_wer.py does (its clips are shorter than that)

Decoding is greedy (num_beams=1, no sampling) with task "transcribe", as Seed-TTS-Eval's
`model.generate(input_features, forced_decoder_ids=...)` with whisper-large-v3's generation
config; the transcript is batch_decode(..., skip_special_tokens=True) with surrounding spaces
stripped. Normalization for WER (punctuation, case) is the evaluator's business, not this script's.

Expected failures (a library missing, weights neither cached nor downloadable) end the process
with status 2 and one line on stderr starting "whisper_asr.py:".
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
        import transformers
        from transformers import WhisperForConditionalGeneration, WhisperProcessor
    except ImportError as error:
        channel.fail(missing_library(error))
    np = numpy
    transformers.logging.set_verbosity_error()
    device = pick_device(torch, args.device)
    dtype = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16}[args.dtype]
    try:
        processor = WhisperProcessor.from_pretrained(args.model)
        model = WhisperForConditionalGeneration.from_pretrained(args.model, torch_dtype=dtype)
        model.to(device).eval()
    except Exception as error:
        channel.fail(f"cannot load {args.model} ({offline_note()}): {describe(error, 200)}: with network "
                     f"access unset HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE so the weights download to the "
                     f"Hugging Face cache (HF_HOME), or pass --model /path/to/a/local/copy")
    identity = f"{args.model} (transformers {transformers.__version__}, language={args.language}, greedy, {args.dtype})"
    return torch, processor, model, device, dtype, identity


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="openai/whisper-large-v3", help="Hugging Face id or local folder")
    parser.add_argument("--language", default="auto",
                        help="english, chinese, another Whisper language, or auto (no forced language)")
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    parser.add_argument("--dtype", default="float32", choices=["float32", "float16", "bfloat16"])
    parser.add_argument("--long-form", default="sequential", choices=["sequential", "truncate"],
                        help="clips over 30 s: sequential long-form decoding, or cut to 30 s as Seed-TTS-Eval")
    args = parser.parse_args()

    channel = Channel()
    torch, processor, model, device, dtype, identity = channel.load_with(load, args, channel)

    generate_options = {"task": "transcribe", "num_beams": 1, "do_sample": False}
    if args.language.lower() != "auto":
        generate_options["language"] = args.language.lower()

    def answer(request):
        audio = request.get("audio") or []
        if not audio:
            raise ValueError("the request has no audio")
        samples = read_wav(audio[0], RATE)
        extractor = processor.feature_extractor
        long_clip = samples.size > 30 * RATE and args.long_form == "sequential"
        with torch.no_grad():
            if long_clip:
                features = extractor(samples, sampling_rate=RATE, return_tensors="pt", truncation=False,
                                     padding="longest", return_attention_mask=True)
                ids = model.generate(features.input_features.to(device, dtype),
                                     attention_mask=features.attention_mask.to(device),
                                     return_timestamps=True, **generate_options)
            else:
                features = extractor(samples, sampling_rate=RATE, return_tensors="pt")
                ids = model.generate(features.input_features.to(device, dtype), **generate_options)
        if not torch.is_tensor(ids):
            ids = ids["sequences"]
        text = processor.batch_decode(ids, skip_special_tokens=True)[0]
        return {"text": text.strip()}

    channel.send({"type": "ready", "model": identity})
    serve(channel, answer)


if __name__ == "__main__":
    main()
