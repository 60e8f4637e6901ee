"""The process-protocol plumbing shared by the scoring-model scripts in this folder
(docs/process-protocol.md). A script keeps its options, its model loading and its answer to a
request, and hands them to this module:

    import process_protocol as protocol   # the script's folder is sys.path[0], wherever it was copied

    def load(args, channel):              # imports the libraries, loads the model
        ...                               # channel.fail(message) for an expected failure
        return identity, answer           # identity: the ready line's "model"

    protocol.run(__file__, load, args)

run() keeps NDJSON on a private stdout (what libraries print goes to stderr), holds library output
while load() runs, says {"type": "ready", "model": identity}, then answers each request line with
{"type": "response", "id": ..., **answer(request)} or, when answer raises, {"type": "error", "id":
..., "message": "<script>.py: ..."}, until stdin closes. A failure while loading is one stderr line
starting "<script>.py:" and exit status 2: channel.fail's message, "cannot import X ...: install
the pinned packages with `pip install -r <script>.requirements.txt` ..." for an ImportError, or
"failed while loading: ..." for any other exception.

Helpers for answer(): first_audio, read_wav (16-bit WAV to float32 in [-1, 1)), embedding_path,
audio_for_embedding, save_embedding (float32 .npy). For load(): pick_device, to_device, describe,
hf_load_failure, torch_hub_failure (and add_torch_hub_options for its --repo and --source).

Nothing here imports numpy or torch at import time: a script must start without them, so that a
missing library is reported in one line (load() imports them).
"""
import json
import os
import sys
import tempfile
import wave

FAILURE_STATUS = 2


class Channel:
    """NDJSON replies go to the real standard output; anything else the process or its libraries
    print (Python or C level) is sent to standard error, so it cannot break the protocol."""

    def __init__(self, script_path):
        self.script = os.path.basename(script_path)  # every failure line and error message starts with it
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
        except ImportError as error:  # load() imports the script's libraries first
            self.fail_missing_library(error)
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
        line = self.script + ": " + " ".join(str(message).split()) + "\n"
        os.write(self._err, line.encode("utf-8", "replace"))
        # os._exit: no exit handlers or library destructors that could print after the line
        os._exit(FAILURE_STATUS)

    def fail_missing_library(self, error):
        """An ImportError while loading: say which library, and where the pinned versions are."""
        name = getattr(error, "name", None) or str(error)
        stem = os.path.splitext(self.script)[0]
        self.fail(f"cannot import {name} ({describe(error, 120)}): install the pinned packages with "
                  f"`pip install -r {stem}.requirements.txt` (aeval builds that environment when the entry "
                  f"names it under `requirements:`)")

    def serve(self, identity, answer):
        """Say ready (with the model's identity, for the run log), then answer requests until stdin
        closes: {"type": "response", "id": ..., **answer(request)} or an error reply for that id."""
        self.send({"type": "ready", "model": identity})
        for line in iter(sys.stdin.readline, ""):
            line = line.strip()
            if not line:
                continue
            try:
                request = json.loads(line)
            except ValueError as error:
                print(f"{self.script}: ignoring a line that is not JSON ({error})", file=sys.stderr, flush=True)
                continue
            if not isinstance(request, dict) or request.get("type", "request") != "request":
                print(f"{self.script}: ignoring a message that is not a request", file=sys.stderr, flush=True)
                continue
            rid = request.get("id")
            try:
                reply = {"type": "response", "id": rid, **answer(request)}
            except Exception as error:  # one bad request must not end the process
                reply = {"type": "error", "id": rid, "message": f"{self.script}: {describe(error)}"}
            self.send(reply)


def run(script_path, load, args):
    """The life of a process model: load(args, channel) -> (identity, answer) with library output
    held, then the ready line and the request loop."""
    channel = Channel(script_path)
    identity, answer = channel.load_with(load, args, channel)
    channel.serve(identity, answer)


def describe(error, limit=300):
    """An exception in one line of at most `limit` characters of text, after its type's name."""
    text = " ".join(str(error).split())
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


# ----------------------------------------------------------------------------- loading
def pick_device(torch, name):
    """The --device option: auto is cuda when available, else cpu."""
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return name


def to_device(torch, model, name):
    """Put the model on the --device named, in eval mode; returns the device."""
    device = pick_device(torch, name)
    model.to(device).eval()
    return device


def offline_note():
    flags = [v for v in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE")
             if os.environ.get(v, "").lower() in ("1", "true", "yes", "on")]
    return f"{'/'.join(flags)} set and no local copy" if flags else "no network or no local copy"


def hf_load_failure(model, error):
    """The failure line for Hugging Face weights that could not be loaded (from_pretrained)."""
    return (f"cannot load {model} ({offline_note()}): {describe(error, 200)}: with network "
            f"access unset HF_HUB_OFFLINE/TRANSFORMERS_OFFLINE so the weights download to the "
            f"Hugging Face cache (HF_HOME), or pass --model /path/to/a/local/copy")


def add_torch_hub_options(parser, repo):
    """--repo and --source, for a model that comes through torch.hub.load (torch_hub_failure's advice
    names them)."""
    parser.add_argument("--repo", default=repo, help="torch.hub repo or local clone")
    parser.add_argument("--source", default="github", choices=["github", "local"])


def torch_hub_failure(torch, entry, repo, clone, error):
    """The failure line for a torch.hub.load(repo, entry) that could not fetch the repository or its
    weights; `clone` names the repository for the --source local advice."""
    hub = torch.hub.get_dir()
    return (f"cannot load {entry} from {repo} (no network or nothing cached under {hub}): "
            f"{describe(error, 200)}: run once with network access so torch.hub caches the "
            f"repository and its weights (TORCH_HOME), or pass --source local --repo "
            f"/path/to/a/{clone}/clone with the weights in {hub}/checkpoints")


# ----------------------------------------------------------------------------- requests
def first_audio(request):
    """The path of the request's (first) audio file."""
    audio = request.get("audio") or []
    if not audio:
        raise ValueError("the request has no audio")
    return audio[0]


def read_wav(path, rate):
    """A 16-bit WAV at `rate` as float32 samples in [-1, 1) (int16 / 32768), channels averaged."""
    import numpy as np  # here, not at the top: the script has imported it (or failed in one line) by now

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


def embedding_path(request):
    """Where the request wants its embedding written (checked before any work is done)."""
    path = request.get("output_embedding")
    if not path:
        raise ValueError("the request has no output_embedding path")
    return path


def audio_for_embedding(request, rate):
    """(audio path, its samples, where the .npy goes) for a request that wants its audio embedded;
    checked in that order, so that a request missing both is told about its audio."""
    path = first_audio(request)
    destination = embedding_path(request)
    return path, read_wav(path, rate), destination


def save_embedding(path, rows):
    """Write rows as a float32 .npy at path; returns the reply's fields."""
    import numpy as np

    with open(path, "wb") as f:
        np.save(f, np.ascontiguousarray(rows, dtype=np.float32))
    return {"embedding": path}
