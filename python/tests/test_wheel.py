"""`pip install .` works offline and gives a wheel that installs elsewhere: built with Debian's setuptools
(no build isolation, the native modules from the configured Release folder), installed into a fresh virtual
environment, imported from another folder."""
import os
import subprocess
import sys

import pytest

from conftest import SOURCE


def test_the_wheel_installs_into_a_fresh_environment_and_scores(tmp_path):
    build = os.environ.get("AEVAL_BUILD_DIR")
    if not build:
        pytest.skip("AEVAL_BUILD_DIR (the configured build folder) is not set: ctest sets it")
    env = dict(os.environ, AEVAL_CMAKE_BUILD_DIR=build, PIP_NO_INDEX="1")
    env.pop("PYTHONPATH", None)
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(SOURCE), "--no-build-isolation", "--no-deps", "-q",
                    "-w", str(tmp_path / "wheels")], check=True, env=env, cwd=tmp_path)
    wheels = list((tmp_path / "wheels").glob("aeval-*.whl"))
    assert len(wheels) == 1
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheels[0])], check=True, env=env)
    out = subprocess.run([str(python), "-c",
                          "import aeval, os; from aeval import jiwer; "
                          "print(aeval.__file__.startswith(os.environ['VENV']), jiwer.wer('a b c', 'a b d'), "
                          "os.path.isdir(os.environ['AEVAL_REGISTRY_DIR']), "
                          "str(aeval.api_doc()).startswith(os.environ['VENV']))"],
                         check=True, capture_output=True, text=True, cwd=tmp_path,
                         env=dict(env, VENV=str(tmp_path / "venv")))
    assert out.stdout.split() == ["True", "0.3333333333333333", "True", "True"]
    # A plain virtual environment (no system site packages) installs and uses the wheel too.
    subprocess.run([sys.executable, "-m", "venv", str(tmp_path / "plain")], check=True)
    plain = tmp_path / "plain" / "bin" / "python"
    subprocess.run([str(plain), "-m", "pip", "install", "-q", "--no-deps", str(wheels[0])], check=True, env=env)
    out = subprocess.run([str(plain), "-c", "from aeval import jiwer; print(jiwer.wer('a b c', 'a b d'))"],
                         check=True, capture_output=True, text=True, cwd=tmp_path, env=env)
    assert out.stdout.split() == ["0.3333333333333333"]
