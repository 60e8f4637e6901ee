"""aeval.run is `aeval run`: the same registry, cache and files, byte for byte; and a Python callable can be
the model, scored in-process."""
import subprocess

import pytest

import aeval
from conftest import BINARY


def only_run(folder):
    runs = sorted(p for p in folder.rglob("summary.json"))
    assert len(runs) == 1, runs
    return runs[0].parent


def test_a_run_from_python_is_byte_identical_to_the_cli(tmp_path):
    if not (BINARY.exists() and __import__("os").path.exists("/usr/share/asterisk/sounds/en_US_f_Allison")):
        pytest.skip("needs the aeval binary and asterisk-core-sounds-en-g722")
    subprocess.run([str(BINARY), "run", "--task", "asr-quickstart", "--limit", "8", "--no-cache", "-q", "--output",
                    str(tmp_path / "cli")], check=True, capture_output=True)
    result = aeval.run(task="asr-quickstart", limit=8, cache=False, output=tmp_path / "python")
    cli = only_run(tmp_path / "cli")
    assert result.run_dir == only_run(tmp_path / "python")
    for name in ("samples.jsonl", "summary.json"):
        assert (result.run_dir / name).read_bytes() == (cli / name).read_bytes(), name
    assert result.summary["metrics"]["wer"]["samples"] == 8


def test_a_python_callable_is_the_model(tmp_path):
    (tmp_path / "m.jsonl").write_text('{"id": "1", "text": "the cat sat"}\n{"id": "2", "text": "a dog"}\n')
    seen = []

    def my_model(request):
        seen.append(request["sample_id"])
        return {"1": "the cat sat", "2": "a cat"}[request["sample_id"]]

    result = aeval.run(dataset=tmp_path / "m.jsonl", model=my_model, prompt="speak", evaluators="wer",
                       output=tmp_path / "out", input_sample_rate=0)
    assert sorted(seen) == ["1", "2"]
    wer = result.summary["metrics"]["wer"]
    assert (wer["substitutions"], wer["hits"], wer["reference_tokens"]) == (1, 4, 5)

    def broken(request):
        raise RuntimeError("no answer today")

    with pytest.raises(aeval.RunFailed, match=r"every sample failed; the first: 1: .*no answer today") as failure:
        aeval.run(dataset=tmp_path / "m.jsonl", model=broken, prompt="speak", evaluators="wer",
                  output=tmp_path / "broken", input_sample_rate=0)
    failed = failure.value.result
    assert failed.summary["counts"]["failed"] == 2
    assert "no answer today" in (failed.run_dir / "samples.jsonl").read_text()

    def half(request):
        if request["sample_id"] == "2":
            raise RuntimeError("not this one")
        return "the cat sat"

    with pytest.raises(aeval.RunFailed, match=r"fail_rate 0.5000 exceeds max_fail_rate 0.4000; the first: 2: "):
        aeval.run(dataset=tmp_path / "m.jsonl", model=half, prompt="speak", evaluators="wer",
                  output=tmp_path / "half", input_sample_rate=0, max_fail_rate=0.4)
    assert aeval.run(dataset=tmp_path / "m.jsonl", model=half, prompt="speak", evaluators="wer",
                     output=tmp_path / "half", input_sample_rate=0).summary["counts"]["failed"] == 1


def test_a_bad_task_is_a_python_error():
    with pytest.raises(RuntimeError, match=r"unknown task 'asr-quikstart' \(did you mean: asr-quickstart\?\)"):
        aeval.run(task="asr-quikstart")


def test_a_module_missing_from_the_python_environment_is_named_with_its_interpreter(tmp_path):
    """numpy, which aeval needs to hand a Python model its audio, or a module the model's code imports: missing,
    either is the environment's to install (which module, which interpreter, how), not the model raising."""
    import json
    import os
    import pathlib
    import sys
    import wave

    with wave.open(str(tmp_path / "a.wav"), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(16000), w.writeframes(b"\0\0" * 1600)
    (tmp_path / "m.jsonl").write_text('{"id": "1", "audio": "a.wav", "text": "hi"}\n')
    script = """if True:
        import aeval, json, sys
        def importing(request):
            import aeval_no_such_module
        for model, rate in ((lambda request: "hi", 16000), (importing, 0)):  # no audio, no numpy needed
            try:
                aeval.run(dataset="m.jsonl", model=model, evaluators="wer", output="out", input_sample_rate=rate)
            except aeval.RunFailed as failure:
                print(json.dumps(str(failure)))
        """
    # -S: without site-packages, so without numpy, as a fresh environment with the aeval wheel alone would be.
    package = pathlib.Path(aeval.__file__).resolve().parents[1]  # the same aeval, wherever the test runs from
    ran = subprocess.run([sys.executable, "-S", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(package)))
    assert ran.returncode == 0, ran.stderr
    audio, imported = (json.loads(line) for line in ran.stdout.splitlines())
    assert (f"the Python environment of {sys.executable} has no module 'numpy' (aeval needs it to hand audio to a "
            f"Python model): install it there, e.g. `{sys.executable} -m pip install numpy`") in audio
    assert "has no module 'aeval_no_such_module' (the model's code imports it)" in imported
    assert "raised" not in audio + imported
