"""Paths the tests share: the aeval binary (for CLI comparisons), ../shared and the source tree."""
import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ.get("AEVAL_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
SHARED = pathlib.Path(os.environ.get("AEVAL_SHARED", SOURCE.parent / "shared"))
BINARY = pathlib.Path(os.environ.get("AEVAL_BINARY", SOURCE / "build" / "aeval"))


def golden(name):
    """The records of one golden file of ../shared/reference; the test fails without it in CI."""
    import json
    path = SHARED / "reference" / name
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing")
        pytest.skip(f"{path} is missing")
    return [json.loads(line) for line in path.open(encoding="utf-8")]
