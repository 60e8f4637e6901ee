#!/usr/bin/env bash
# The Debian packages the side-by-side benchmarks run their Python side on.
# Not part of scripts/setup.sh: aeval itself and its tests do not need them.
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  python3-nltk python3-scipy python3-sklearn wordnet-base python3-torch python3-torchaudio
