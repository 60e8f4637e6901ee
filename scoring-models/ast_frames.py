#!/usr/bin/env python3
"""aeval process model (docs/process-protocol.md): AST frame embeddings for AudioBERTScore (seed 001).

Answers every audio request with {"embedding": path}: a frames x 768 float32 .npy of the Audio
Spectrogram Transformer's patch tokens at one layer, as lourson1091/audiobertscore (ddccd17)
takes them for model_type "ast". Audio comes at 16 kHz (input_sample_rate: 16000).

  --model  Hugging Face id or local folder (default MIT/ast-finetuned-audioset-10-10-0.4593, the
           transformers port of the reference's audioset_10_10_0.4593.pth)
  --layer  1 to 13, numbered as the reference numbers them (default 13): layer k <= 12 is the
           output of transformer block k (transformers' hidden_states[k]); layer 13 is the last
           block's output after the final layer norm (transformers' last_hidden_state, not
           hidden_states[12]). hidden_states[0], the embeddings, is no layer of the reference.
  --layer-norm-eps  the layer norms' epsilon (default 1e-6, that of the reference's timm 0.4.5
           DeiT; the transformers config says 1e-12; "config" keeps the config's)
  --device auto (cuda when available), cpu, cuda, cuda:N

What the reference does, and this script with it:
  * Features: torchaudio.compliance.kaldi.fbank of the 16 kHz waveform in [-1, 1) (htk_compat,
    use_energy off, hanning window, 128 mel bins, dither 0, 10 ms shift), cut or zero-padded to
    1024 frames (10.24 s: later audio is not seen), then (x + 4.2677393) / (2 * 4.5689974).
  * Tokens: the 1212 patch tokens (12 frequency x 101 time patches, stride 10) of the chosen
    layer; the first two tokens (CLS and distillation) are dropped, as the reference drops them.
    Nothing else is dropped: patches over the padding of a short clip stay, as in the reference,
    so every clip gives 1212 x 768. The rows are in the model's patch order (frequency-major).

Not verified here: values against the reference's own AST code (timm 0.4.5) with its .pth; the
mapping of layers and the feature pipeline follow from reading both implementations.

Expected failures (transformers or torchaudio missing, weights neither cached nor downloadable)
end the process with status 2 and one line on stderr starting "ast_frames.py:".
"""
import argparse
import json
import os
import sys
import tempfile
import wave

SCRIPT = os.path.basename(__file__)
RATE = 16000
FBANK_MEAN = -4.2677393
FBANK_STD = 4.5689974


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
        import torchaudio
        import transformers
        from transformers import ASTModel
    except ImportError as error:
        channel.fail(missing_library(error))
    np = numpy
    transformers.logging.set_verbosity_error()
    overrides = {} if args.layer_norm_eps == "config" else {"layer_norm_eps": float(args.layer_norm_eps)}
    try:
        model = ASTModel.from_pretrained(args.model, **overrides)
    except Exception as error:
        channel.fail(f"cannot load {args.model} ({offline_note()}): {describe(error, 200)}: with network "
                     f"access unset HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE so the weights download to the "
                     f"Hugging Face cache (HF_HOME), or pass --model /path/to/a/local/copy")
    layers = model.config.num_hidden_layers
    if not 1 <= args.layer <= layers + 1:
        channel.fail(f"--layer {args.layer} is out of range: 1 to {layers + 1} for {args.model}")
    device = pick_device(torch, args.device)
    model.to(device).eval()
    identity = (f"{args.model} layer {args.layer} (transformers {transformers.__version__}, "
                f"layer_norm_eps {model.config.layer_norm_eps}, CLS/distillation tokens dropped)")
    return torch, torchaudio, model, device, identity


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="MIT/ast-finetuned-audioset-10-10-0.4593")
    parser.add_argument("--layer", type=int, default=13, help="1-13 as AudioBERTScore numbers them")
    parser.add_argument("--layer-norm-eps", default="1e-6", help='a number, or "config"')
    parser.add_argument("--device", default="auto", help="auto, cpu, cuda, cuda:N")
    args = parser.parse_args()
    if args.layer_norm_eps != "config":
        try:
            float(args.layer_norm_eps)
        except ValueError:
            parser.error("--layer-norm-eps takes a number or config")

    channel = Channel()
    torch, torchaudio, model, device, identity = channel.load_with(load, args, channel)
    config = model.config

    def answer(request):
        audio = request.get("audio") or []
        if not audio:
            raise ValueError("the request has no audio")
        if not request.get("output_embedding"):
            raise ValueError("the request has no output_embedding path")
        samples = read_wav(audio[0], RATE)
        if samples.size < 400:
            raise ValueError(f"{audio[0]}: {samples.size} samples, the filterbank needs at least 400 (25 ms)")
        fbank = torchaudio.compliance.kaldi.fbank(
            torch.from_numpy(samples).unsqueeze(0), htk_compat=True, sample_frequency=RATE, use_energy=False,
            window_type="hanning", num_mel_bins=config.num_mel_bins, dither=0.0, frame_shift=10)
        frames = config.max_length
        if fbank.shape[0] < frames:
            fbank = torch.nn.functional.pad(fbank, (0, 0, 0, frames - fbank.shape[0]))
        fbank = fbank[:frames]
        inputs = ((fbank - FBANK_MEAN) / (FBANK_STD * 2)).unsqueeze(0).to(device)
        with torch.no_grad():
            output = model(input_values=inputs, output_hidden_states=True)
        last = args.layer == config.num_hidden_layers + 1
        tokens = output.last_hidden_state if last else output.hidden_states[args.layer]
        rows = tokens[0, 2:].float().cpu().numpy()
        with open(request["output_embedding"], "wb") as f:
            np.save(f, np.ascontiguousarray(rows, dtype=np.float32))
        return {"embedding": request["output_embedding"]}

    channel.send({"type": "ready", "model": identity})
    serve(channel, answer)


if __name__ == "__main__":
    main()
