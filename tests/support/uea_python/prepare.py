"""Makes UltraEval-Audio's own main.py importable on Debian 12 (../shared/uea-python/README.md), for tests that
compare aeval with it: builds the editdistance extension from its pinned source, writes stand-ins for the
modules UEA imports at start-up that Debian lacks (each raises as soon as anything in it is used, so a run
that would need one fails instead of computing something else), and prints the PYTHONPATH to use.

    /usr/bin/python3 prepare.py SHARED_DIR OUT_DIR
"""
import fcntl
import os
import shutil
import subprocess
import sys

# Modules UEA's framework imports at start-up that no Debian package provides.
STAND_INS = [
    "jiwer",
    "huggingface_hub",
    "datasets",
    "pycocotools", "pycocotools.coco",
    "pycocoevalcap", "pycocoevalcap.bleu", "pycocoevalcap.bleu.bleu", "pycocoevalcap.cider", "pycocoevalcap.cider.cider",
    "pycocoevalcap.meteor", "pycocoevalcap.meteor.meteor", "pycocoevalcap.rouge", "pycocoevalcap.rouge.rouge",
    "pycocoevalcap.spice", "pycocoevalcap.spice.spice", "pycocoevalcap.tokenizer",
    "pycocoevalcap.tokenizer.ptbtokenizer",
]

STAND_IN = '''"""A stand-in for {module}, which Debian lacks: importing works, using anything fails."""


class _Unavailable:
    def __init__(self, name):
        self._name = name

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{{self._name}} was called, but {module} is only a stand-in on this machine")

    def __getattr__(self, name):
        raise RuntimeError(f"{{self._name}}.{{name}} was used, but {module} is only a stand-in on this machine")

    def __mro_entries__(self, bases):
        return (object,)


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _Unavailable("{module}." + name)
'''


def write_stand_ins(root):
    for module in STAND_INS:
        parts = module.split(".")
        folder = os.path.join(root, *parts)
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "__init__.py"), "w") as f:
            f.write(STAND_IN.format(module=module))


def build_editdistance(source, out):
    if os.path.exists(os.path.join(out, ".built")):
        return
    shutil.rmtree(out, ignore_errors=True)
    shutil.copytree(source, out)
    setup = (
        "from setuptools import setup, Extension\n"
        "from Cython.Build import cythonize\n"
        "setup(name='editdistance', package_dir={'': 'src'}, packages=['editdistance'], ext_modules=cythonize(["
        "Extension('editdistance.bycython', ['src/editdistance/bycython.pyx', 'src/editdistance/_editdistance.cpp'],"
        " include_dirs=['src/editdistance'], language='c++')]))\n"
    )
    with open(os.path.join(out, "setup.py"), "w") as f:
        f.write(setup)
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=out, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    open(os.path.join(out, ".built"), "w").close()


def main():
    shared, out = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, ".lock"), "w") as lock:  # tests run in parallel: one of them builds
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_editdistance(os.path.join(shared, "uea-python", "editdistance-src"), os.path.join(out, "editdistance"))
        write_stand_ins(os.path.join(out, "stand-ins"))
    print(":".join([os.path.join(shared, "uea-python", "src"), os.path.join(out, "editdistance", "src"),
                    os.path.join(out, "stand-ins")]))


if __name__ == "__main__":
    main()
