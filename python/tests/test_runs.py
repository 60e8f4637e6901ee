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
