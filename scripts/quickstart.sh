#!/usr/bin/env bash
# Installs what is missing, builds aeval and runs its built-in default task:
# PocketSphinx on the Asterisk voice prompts, scored by WER and CER.
#
#   scripts/quickstart.sh [aeval run options]   the default task
#   scripts/quickstart.sh --codecs [SAMPLES]    the codec and TTS leaderboard (UltraEval-Audio's
#                                               Table 6 axes that run offline) on the first SAMPLES
#                                               Asterisk prompts (default 60), as Markdown on stdout
#                                               and HTML in results/leaderboard/leaderboard.html
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh release >&2
if [ "${1:-}" != "--codecs" ]; then
  exec build/aeval run --task asr-quickstart "$@"
fi
samples=${2:-60}
out=results/leaderboard
for codec in identity-codec opus-6k opus-12k opus-24k mp3-32k gsm codec2-1200 codec2-3200 mulaw-process; do
  build/aeval run --task codec-speech --model "$codec" --limit "$samples" --output "$out" --quiet >/dev/null
  echo "quickstart: codec-speech $codec done" >&2
done
for voice in espeak-en-us espeak-en-gb; do
  build/aeval run --task tts-intelligibility --model "$voice" --output "$out" --quiet >/dev/null
  echo "quickstart: tts-intelligibility $voice done" >&2
done
build/aeval report "$out" --format html --out "$out/leaderboard.html"
exec build/aeval report "$out"
