#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): CLAP audio and text embeddings (CLAPScore).

A joint text-audio embedder for aeval's clap_score. Audio comes at 48 kHz (the entry's
input_sample_rate: 48000), 16-bit mono WAV.
  * an audio request -> {"embedding": path}, a 1 x 512 float32 .npy: ClapModel.get_audio_features
    of the clip (the feature extractor's log-mel, 10 s windows: shorter clips are repeated and
    padded, longer ones cropped at random by the unfused model's "rand_trunc")
  * a text request (no audio, the text in fields.text) -> a 1 x 512 float32 .npy of
    ClapModel.get_text_features, the text tokenized as LAION-CLAP does (RoBERTa, truncated to 77
    tokens)
Both are L2-normalized: transformers' get_audio_features / get_text_features already return unit
vectors (4.49), and the script normalizes again (a no-op then), so the dot product of an audio and
a text embedding is the cosine CLAPScore reports.

  --model  Hugging Face id or local folder (default laion/clap-htsat-unfused)
  --seed   the NumPy seed set before every audio clip (default 0), so that the random crop of a
           clip over 10 s is the same each time (aeval caches embeddings by the audio's content)
  --device auto (cuda when available), cpu, cuda, cuda:N

Not verified here: embeddings against LAION-CLAP's own package (laion_clap), which quantizes the
waveform to int16 with a 32767 scale (this script reads int16 / 32768) and may crop differently.

Expected failures (transformers missing, weights neither cached nor downloadable) end the process
with status 2 and one line on stderr starting "clap_embed.py:".
"""
import argparse
import json
import os
import sys
import tempfile
import wave

SCRIPT = os.path.basename(__file__)
RATE = 48000


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
        from transformers import ClapModel, ClapProcessor
    except ImportError as error:
        channel.fail(missing_library(error))
    np = numpy
    transformers.logging.set_verbosity_error()
    try:
        processor = ClapProcessor.from_pretrained(args.model)
        model = ClapModel.from_pretrained(args.model)
    except Exception as error:
        channel.fail(f"cannot load {args.model} ({offline_note()}): {describe(error, 200)}: with network "
                     f"access unset HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE so the weights download to the "
                     f"Hugging Face cache (HF_HOME), or pass --model /path/to/a/local/copy")
    device = pick_device(torch, args.device)
    model.to(device).eval()
    identity = f"{args.model} (transformers {transformers.__version__}, L2-normalized, {RATE} Hz)"
    return torch, processor, model, device, identity


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="laion/clap-htsat-unfused")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    args = parser.parse_args()

    channel = Channel()
    torch, processor, model, device, identity = channel.load_with(load, args, channel)

    def answer(request):
        if not request.get("output_embedding"):
            raise ValueError("the request has no output_embedding path")
        audio = request.get("audio") or []
        with torch.no_grad():
            if audio:
                samples = read_wav(audio[0], RATE)
                np.random.seed(args.seed)
                inputs = processor.feature_extractor(samples, sampling_rate=RATE, return_tensors="pt")
                extra = {"is_longer": inputs["is_longer"].to(device)} if "is_longer" in inputs else {}
                features = model.get_audio_features(input_features=inputs["input_features"].to(device), **extra)
            else:
                text = (request.get("fields") or {}).get("text")
                if not isinstance(text, str) or not text.strip():
                    raise ValueError("a request without audio needs its text in fields.text")
                tokens = processor.tokenizer([text], padding="max_length", truncation=True, max_length=77,
                                             return_tensors="pt")
                features = model.get_text_features(input_ids=tokens["input_ids"].to(device),
                                                   attention_mask=tokens["attention_mask"].to(device))
            if not torch.is_tensor(features):
                raise TypeError(f"get_*_features returned {type(features).__name__}, expected a tensor "
                                f"(use the pinned transformers)")
            vector = torch.nn.functional.normalize(features.float(), dim=-1).cpu().numpy().reshape(1, -1)
        with open(request["output_embedding"], "wb") as f:
            np.save(f, np.ascontiguousarray(vector, dtype=np.float32))
        return {"embedding": request["output_embedding"]}

    channel.send({"type": "ready", "model": identity})
    serve(channel, answer)


if __name__ == "__main__":
    main()
