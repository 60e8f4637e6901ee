#!/usr/bin/env bash
# Installs what is missing, builds aeval and runs its built-in default task:
# PocketSphinx on the Asterisk voice prompts, scored by WER and CER.
#
#   scripts/quickstart.sh [aeval run options]   the default task
#   scripts/quickstart.sh --codecs [SAMPLES]    the codec and TTS leaderboard (UltraEval-Audio's
#                                               Table 6 axes that run offline, DNSMOS when its models
#                                               are cached or DNSMOS_MODELS names them) on the first SAMPLES
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
# DNSMOS (P.835 OVRL and P.808, as the paper's acoustics) joins when its official models are at hand:
# downloaded once by `aeval fetch model dnsmos`, or a folder of them named by DNSMOS_MODELS.
codec_evaluators=asr-wer,asr-wer-vs-original,si-sdr,stoi,estoi,mel-distance,mcd
tts_evaluators=asr-wer
dnsmos=()
if [ -n "${DNSMOS_MODELS:-}" ]; then
  # Absolute: a path set on an entry is read relative to the entry's file, not to here.
  models=$(realpath "$DNSMOS_MODELS")
  dnsmos=(--set "dnsmos.models_dir=$models" --set "dnsmos-p808.models_dir=$models")
elif ! build/aeval fetch model dnsmos >&2; then
  echo "quickstart: no DNSMOS models (aeval fetch model dnsmos needs the network once): leaderboard without DNSMOS" >&2
  dnsmos=(skip)
fi
if [ "${dnsmos[0]:-}" != skip ]; then
  codec_evaluators+=,dnsmos,dnsmos-p808
  tts_evaluators+=,dnsmos,dnsmos-p808
else
  dnsmos=()
fi
for codec in identity-codec opus-6k opus-12k opus-24k mp3-32k gsm codec2-1200 codec2-3200 mulaw-process; do
  build/aeval run --task codec-speech --model "$codec" --limit "$samples" --evaluator "$codec_evaluators" \
    "${dnsmos[@]}" --output "$out" --quiet >/dev/null
  echo "quickstart: codec-speech $codec done" >&2
done
for voice in espeak-en-us espeak-en-gb; do
  build/aeval run --task tts-intelligibility --model "$voice" --evaluator "$tts_evaluators" "${dnsmos[@]}" \
    --output "$out" --quiet >/dev/null
  echo "quickstart: tts-intelligibility $voice done" >&2
done
build/aeval report "$out" --format html --out "$out/leaderboard.html"
# A codec of one's own joins the board only with the board's own samples and metrics: its command, exactly.
echo "quickstart: add a codec to this board: build/aeval run --task codec-speech --model YOURS --limit $samples" \
  "--evaluator $codec_evaluators ${dnsmos[*]} --output $out && build/aeval report $out" >&2
exec build/aeval report "$out"
