"""aeval's bridge to one UltraEval-Audio class (docs/uea.md, "UEA's model entries").

aeval runs this script as a process model (docs/process-protocol.md) in the interpreter that hosts
UltraEval-Audio's framework. It builds the class an entry names from UEA's own tree, with the entry's
arguments, as UEA's registry builds it (audio_evals.utils.make_object), and answers each request as UEA's
EvalTask calls the instance: a model's inference() with the prompt UEA's Prompt.load rendered (--role model),
an evaluator's __call__(pred, ref, **row) with the request's fields (--role evaluator), an aggregation's
__call__(score_detail) with the run's results (--role agg); a dict is answered as JSON text.
An @isolated class starts its own script in its own environment, as in UEA; aeval built that environment
before starting this bridge (so UEA's ensure_env is told to skip).

  python3 uea_model_bridge.py describe --uea-root DIR --class PATH
      prints what aeval needs before it builds anything: whether the class is @isolated, its script and
      pre_command (the decorator's arguments), and this interpreter's version
  python3 uea_model_bridge.py serve --uea-root DIR --class PATH --args JSON [--role model|evaluator|agg]
                                   [--gpu-id N] [--concurrency N]
      builds the instance, says ready, answers requests until its input ends
"""
import argparse
import importlib
import json
import logging
import os
import queue
import signal
import sys
import threading
import time
import traceback

AUDIO_SUFFIXES = (".wav", ".flac", ".mp3", ".ogg", ".opus", ".m4a")


def one_line(error):
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def hint(error):
    """What a user can do about a class that cannot be built here."""
    if isinstance(error, ModuleNotFoundError):
        return (f"the interpreter hosting UltraEval-Audio's classes ({sys.executable}) lacks the module "
                f"'{error.name}': install UltraEval-Audio's requirements into it, or point $AEVAL_UEA_PYTHON "
                f"(or --set MODEL.python=PATH) at UltraEval-Audio's own environment")
    text = str(error).lower()
    if any(word in text for word in ("huggingface", "hf_hub", "snapshot", "modelscope", "connection", "resolve")):
        return ("the weights could not be fetched: set HF_ENDPOINT to a reachable mirror, or give the entry's "
                "path argument a local copy of the weights (--set MODEL.uea_args.path=DIR)")
    if "cuda" in text or "gpu" in text or "nvidia" in text:
        return "the class needs a GPU: run on a machine with one (--set MODEL.gpu_id=N picks it)"
    return ""


class LastError(logging.Handler):
    """Keeps the last error UEA's code logged: a class that gives up with sys.exit() says why only there."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.message = ""

    def emit(self, record):
        self.message = record.getMessage().splitlines()[0] if record.getMessage() else ""


def load_class(path):
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)


def isolated_spec(cls):
    """The arguments of the @isolated decorator that wrapped cls.__init__, or None."""
    init = cls.__init__
    code = getattr(init, "__code__", None)
    if code is None or "script_path" not in code.co_freevars:
        return None
    cells = {name: cell.cell_contents for name, cell in zip(code.co_freevars, init.__closure__ or ())}
    return {"script_path": cells["script_path"], "pre_command": cells.get("pre_command", "")}


def describe(options):
    try:
        spec = isolated_spec(load_class(options.class_path))
    except BaseException as error:  # an import can raise anything, SystemExit included
        print(json.dumps({"error": one_line(error), "hint": hint(error)}))
        return 1
    print(json.dumps({"isolated": spec, "python": sys.version.split()[0], "executable": sys.executable}))
    return 0


def protocol_output():
    """The real stdout for protocol lines; everything else printed (UEA's classes print progress) goes to stderr."""
    out = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def answer_fields(result):
    """A response's fields for what inference() returned: the answer itself as the text, as UEA's processes and
    evaluators get it (a speech model's {"audio": path, "text": ..., "RTF": ...} as JSON, a TTS model's path), and
    the audio it names, which aeval keeps in the run folder too."""
    if not isinstance(result, str):
        result = json.dumps(result, ensure_ascii=False) if isinstance(result, (dict, list)) else str(result)
    try:
        value = json.loads(result)
    except ValueError:
        value = None
    if isinstance(value, dict) and isinstance(value.get("audio"), str) and os.path.isfile(value["audio"]):
        return {"text": result, "audio": os.path.abspath(value["audio"])}
    if result.lower().endswith(AUDIO_SUFFIXES) and os.path.isfile(result):
        return {"text": result, "audio": os.path.abspath(result)}
    return {"text": result}


def plain(value):
    """A value of an evaluator's dict as JSON holds it (numpy's numbers and arrays as Python's)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def evaluate(evaluator, request):
    fields = request.get("fields") or {}
    result = evaluator(fields.get("pred"), fields.get("ref"), **(fields.get("kwargs") or {}))
    return {"text": json.dumps(result, ensure_ascii=False, default=plain, allow_nan=False)}


def aggregate(agg, request):
    results = (request.get("fields") or {}).get("results") or []
    return {"text": json.dumps(agg(results), ensure_ascii=False, default=plain, allow_nan=False)}


def infer(model, request):
    prompt = request.get("prompt")
    if prompt is None:
        raise ValueError("the request has no prompt structure: UltraEval-Audio's models need a UEA prompt")
    return answer_fields(model.inference(prompt, **(request.get("kwargs") or {})))


class Bridge:
    def __init__(self, out, model, answer, concurrency):
        self.out, self.model, self.answer = out, model, answer
        self.write_lock = threading.Lock()
        self.in_flight = {}
        self.requests = queue.Queue()
        for _ in range(concurrency):
            threading.Thread(target=self.work, daemon=True).start()

    def send(self, message):
        with self.write_lock:
            self.out.write(json.dumps(message, ensure_ascii=False) + "\n")
            self.out.flush()

    def work(self):
        while True:
            request = self.requests.get()
            rid = request.get("id", "")
            try:
                self.send({"type": "response", "id": rid, **self.answer(self.model, request)})
            except BaseException as error:
                self.send({"type": "error", "id": rid, "message": one_line(error)})
            finally:
                with self.write_lock:
                    self.in_flight.pop(rid, None)

    def watch_script(self):
        """An @isolated class's script that dies leaves inference() spinning forever (UEA's loops read until
        they see an answer): say why and exit, so that aeval fails what was in flight and starts the class
        again for the next request (answering each request's error here would let aeval send the next one to
        this process before it sees it end)."""
        process = getattr(self.model, "process", None)
        if process is None or not hasattr(process, "poll"):
            return
        while process.poll() is None:
            time.sleep(0.2)
        print(f"UltraEval-Audio's model script exited with status {process.returncode}", file=sys.stderr, flush=True)
        os._exit(3)

    def serve(self):
        threading.Thread(target=self.watch_script, daemon=True).start()
        for line in sys.stdin:
            try:
                request = json.loads(line)
            except ValueError:
                continue
            if not isinstance(request, dict) or request.get("type") != "request":
                continue
            with self.write_lock:
                self.in_flight[request.get("id", "")] = True
            self.requests.put(request)
        # The run ended: wait for answers still being computed, then stop the class's script with us.
        while True:
            with self.write_lock:
                if not self.in_flight:
                    break
            time.sleep(0.05)


def stop_process_group():
    """Ends the @isolated script (a shell and its python, started by UEA's decorator) with this process."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    try:
        os.killpg(0, signal.SIGTERM)
    except OSError:
        pass
    sys.stderr.flush()
    os._exit(0)


def serve(options):
    try:
        os.setsid()  # the class's script joins this process group, so it never outlives the bridge
    except OSError:
        pass
    out = protocol_output()
    last_error = LastError()
    logging.getLogger().addHandler(last_error)
    try:
        arguments = json.loads(options.args)
        if options.gpu_id is not None:
            arguments["gpu_id"] = options.gpu_id
        # aeval has built the @isolated environment (UEA's ensure_env would install with uv from PyPI).
        os.environ["AUDIO_EVALS_SKIP_ENV_SETUP"] = "1"
        from audio_evals.utils import make_object

        model = make_object(options.class_path, **arguments)
    except BaseException as error:
        traceback.print_exc()
        reason = one_line(error)
        if isinstance(error, SystemExit) and last_error.message:
            reason = f"it exited ({reason}) after logging: {last_error.message}"
        advice = hint(error) or hint(RuntimeError(last_error.message))
        out.write(json.dumps({"type": "error", "message": reason + (f" ({advice})" if advice else "")}) + "\n")
        out.flush()
        stop_process_group()
    out.write(json.dumps({"type": "ready", "model": options.class_path}) + "\n")
    out.flush()
    answer = {"model": infer, "evaluator": evaluate, "agg": aggregate}[options.role]
    Bridge(out, model, answer, options.concurrency).serve()
    stop_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["describe", "serve"])
    parser.add_argument("--uea-root", required=True)
    parser.add_argument("--class", dest="class_path", required=True)
    parser.add_argument("--args", default="{}")
    parser.add_argument("--role", choices=["model", "evaluator", "agg"], default="model")
    parser.add_argument("--gpu-id", type=int)
    parser.add_argument("--concurrency", type=int, default=1)
    options = parser.parse_args()
    # UEA resolves its scripts, environments and relative paths against its root, as when run from a checkout.
    os.chdir(options.uea_root)
    sys.path.insert(0, os.path.abspath(options.uea_root))
    return describe(options) if options.mode == "describe" else serve(options)


if __name__ == "__main__":
    sys.exit(main())
