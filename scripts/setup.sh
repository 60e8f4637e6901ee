#!/usr/bin/env bash
# Installs every Debian package aeval needs, then DuckDB's library from npm
# (scripts/vendor_duckdb.sh). Idempotent and non-interactive: does nothing
# when everything is present; uses sudo when not run as root.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build pkg-config git
  # the sanitize build: Clang, its sanitizer and libFuzzer runtimes
  clang libclang-rt-dev
  # libraries linked into aeval
  libsndfile1-dev libsoxr-dev libavformat-dev libavcodec-dev libavutil-dev
  libpocketsphinx-dev libsphinxbase-dev
  libeigen3-dev libyaml-cpp-dev nlohmann-json3-dev libpcre2-dev libicu-dev libcli11-dev libfmt-dev
  # DNSMOS: the ONNX protobuf classes that read the official model files
  libonnx-dev libprotobuf-dev
  libcurl4-openssl-dev libssl-dev zlib1g-dev libsqlite3-dev libarchive-dev
  # aeval view's HTTP server (the tests' local servers use it too)
  libcpp-httplib-dev
  # Chinese script conversion (OpenCC) and Japanese words (MeCab with the IPA dictionary)
  libopencc-dev libmecab-dev mecab-ipadic-utf8
  libopus-dev libcodec2-dev libmp3lame-dev libgsm1-dev
  # text-to-speech, run as a subprocess (GPL: never linked)
  espeak-ng
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev
  # a real headless browser that loads the HTML leaderboard and aeval view in end-to-end tests
  chromium
  # the reference implementations Debian ships, for differential tests and benchmarks
  python3 python3-nltk python3-scipy python3-sklearn
  # isolated Python environments for process models
  python3-venv python3-pip
  # the Python package (python/, `pip install .`): pybind11, the headers, NumPy, setuptools as its backend
  pybind11-dev python3-dev python3-numpy python3-setuptools
  # data and models used by the built-in quickstart task
  pocketsphinx-en-us asterisk-core-sounds-en asterisk-core-sounds-en-g722
  # the same prompts in Spanish, French, Italian and Russian, for multilingual ASR tasks
  asterisk-core-sounds-es asterisk-core-sounds-es-g722 asterisk-core-sounds-fr asterisk-core-sounds-fr-g722
  asterisk-core-sounds-it asterisk-core-sounds-it-g722 asterisk-core-sounds-ru asterisk-core-sounds-ru-g722
  # real recordings for dataset-source tests (LibriSpeech layout, Kaldi folders)
  pocketsphinx-testdata
  # WordNet 3.0 for METEOR synonyms
  wordnet-base
  # checks the integrity of DuckDB's npm packages (scripts/vendor_duckdb.sh)
  openssl
)

# The tests alone (scripts/test.sh passes --tests): pytest for the Python package, Debian's PyTorch,
# on which the scoring-model scripts run with random weights (scoring-models/plumbing_test.py: plumbing; VGGish's
# hub code imports resampy),
# a real Slurm (slurmctld, slurmd, munge) that the cluster test starts as a one-node cluster, and what
# UltraEval-Audio's own Python needs to give the end-to-end tests their expected prompts (jinja2, regex), and
# what its main.py imports to run beside aeval on the same tree (../shared/uea-python/README.md: pandas and the
# rest, openpyxl for its spreadsheet view, Cython to build editdistance), and what UEA's GPT4oAudio class imports and
# runs (websockets, pydub, the ffmpeg program) to talk to the Realtime API stand-in, and what its IFEval imports.
if [ "${1:-}" = --tests ]; then
  packages+=(python3-torch python3-torchaudio python3-resampy python3-pytest slurm-wlm munge
             python3-jinja2 python3-regex python3-more-itertools
             python3-pandas python3-yaml python3-requests python3-tqdm python3-soundfile python3-tabulate
             python3-colorama python3-lxml python3-portalocker python3-openpyxl cython3
             python3-websockets python3-pydub ffmpeg python3-langdetect python3-absl python3-immutabledict)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# npm fetches DuckDB's library below; any npm will do, Debian's if there is none.
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -eq 0 ]; then
  exec "$(dirname "$0")/vendor_duckdb.sh"
fi

echo "setup: installing ${#missing[@]} missing Debian package(s): ${missing[*]}"
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: not root and sudo is missing; install as root: apt-get install ${missing[*]}" >&2; exit 1; }
  as_root=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -q
"${as_root[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
"$(dirname "$0")/vendor_duckdb.sh"
