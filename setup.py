"""Builds the aeval Python package: CMake compiles the native modules (target aeval_python, in
python/CMakeLists.txt) for the interpreter running pip, and the wheel takes them with the pure-Python
modules, libduckdb.so (the modules find it beside them) and the registry with what its entries name
(registry/, examples/, scoring-models/ under aeval/data/).

AEVAL_CMAKE_BUILD_DIR: an already configured build folder to build in (the tests use the Release one). Without
it, the repository's build/ is used when scripts/build.sh configured it as a Release build for this interpreter
(so the modules already built there are not built again), else build-python/.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def _reusable(build):
    """A Release build folder configured for the interpreter running pip (a virtual environment's base one too)."""
    try:
        cache = (build / "CMakeCache.txt").read_text()
    except OSError:
        return False
    values = dict(line.split("=", 1) for line in cache.splitlines() if "=" in line and not line.startswith(("#", "//")))
    python = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    configured = values.get("Python_EXECUTABLE:FILEPATH") or values.get("_Python_EXECUTABLE:INTERNAL")
    return values.get("CMAKE_BUILD_TYPE:STRING") == "Release" and configured is not None and \
        os.path.realpath(configured) == python


BUILD = Path(os.environ.get("AEVAL_CMAKE_BUILD_DIR") or
             (ROOT / "build" if _reusable(ROOT / "build") else ROOT / "build-python"))


class CMakeBuild(build_ext):
    def run(self):
        build = BUILD
        if not (build / "CMakeCache.txt").exists():
            subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                            "-DAEVAL_BENCH=OFF", f"-DPython_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", str(build), "--target", "aeval_python", "--parallel", str(os.cpu_count() or 1)],
                       check=True)
        package = Path(self.build_lib) / "aeval"
        package.mkdir(parents=True, exist_ok=True)
        for module in (build / "python" / "aeval").glob("_*.so"):
            shutil.copy2(module, package / module.name)
        shutil.copy2(ROOT / "vendor" / "duckdb" / "lib" / "libduckdb.so", package / "libduckdb.so")
        data = package / "data"
        for folder in ("registry", "examples", "scoring-models"):
            shutil.rmtree(data / folder, ignore_errors=True)
            shutil.copytree(ROOT / folder, data / folder, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy2(ROOT / "docs" / "python.md", data / "python.md")  # the API, which help(aeval) points to


setup(
    packages=["aeval"],
    package_dir={"aeval": "python/aeval"},
    ext_modules=[Extension("aeval._metrics", sources=[]), Extension("aeval._runs", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    zip_safe=False,
    # setuptools' own staging goes inside the CMake build folder, not into the source tree.
    options={"build": {"build_base": str(BUILD / "setuptools")}, "egg_info": {"egg_base": str(BUILD)}},
)
