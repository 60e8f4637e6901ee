#!/usr/bin/env bash
# Installs what is missing, builds aeval and runs its built-in default task:
# PocketSphinx on the Asterisk voice prompts, scored by WER and CER.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release
exec build/aeval run --task asr-quickstart "$@"
