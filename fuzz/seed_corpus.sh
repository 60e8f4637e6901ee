#!/usr/bin/env bash
# Assembles every fuzzer's seed corpus under OUT from real files: the hand-made
# seeds in fuzz/seeds/, past findings in fuzz/findings/, the repository's
# registry, docs and examples, files Debian packages ship (scipy's WAV test
# files, the Asterisk prompts and their transcripts) and the shared reference
# data next to the checkout. Nothing here is required: a missing source only
# leaves a corpus smaller.
# usage: seed_corpus.sh SOURCE_DIR OUT TARGET...
set -euo pipefail
src=$1
out=$2
shift 2
reference=${AEVAL_REFERENCE_DIR:-$src/../shared/reference}

rm -rf "$out"
mkdir -p "$out/artifacts"
for target in "$@"; do mkdir -p "$out/$target/seeds" "$out/$target/new"; done

# seed TARGET FILE [PREFIX]: FILE, after an optional first line PREFIX, as a
# seed named after its path (so same-named files do not collide).
seed() {
  local dir="$out/$1/seeds" name
  [ -f "$2" ] || return 0
  mkdir -p "$dir"
  name=${2#/}
  name=${name//\//_}
  if [ $# -ge 3 ]; then { printf '%s\n' "$3"; cat "$2"; } > "$dir/$name"; else cp "$2" "$dir/$name"; fi
}
# Files no bigger than a fuzzer input should be.
small() { find "$@" -maxdepth 1 -type f -size -48k 2>/dev/null | sort; }

for target in "$src"/fuzz/seeds/*/; do
  for f in "$target"*; do
    case $(basename "$target") in
      audio_file) seed audio_file "$f" ".${f##*.}" ;;  # first line: the extension
      *) seed "$(basename "$target")" "$f" ;;
    esac
  done
done

# Inputs that once failed a fuzzer, exactly as it took them: each run starts
# from them, so a regression fails at once.
for target in "$src"/fuzz/findings/*/; do
  for f in "$target"*; do seed "$(basename "$target")" "$f"; done
done

for dir in "$src"/registry/*/; do
  for f in "$dir"*.yaml; do seed registry_yaml "$f" "#> $(basename "$dir")"; done
done

for f in "$src"/registry/prompts/*.yaml "$src"/docs/templates.md; do seed template "$f"; done

for f in "$src"/examples/*/*.jsonl; do
  seed manifest "$f"
  seed score_inputs "$f"
  seed predictions_file "$f"
done
# A few rows of the reference vectors: long lines, all of Unicode.
for f in "$reference"/whisper_normalizers.jsonl "$reference"/jiwer.jsonl; do
  [ -f "$f" ] || continue
  head -n 4 "$f" > "$out/$(basename "$f")"
  seed manifest "$out/$(basename "$f")"
  seed score_inputs "$out/$(basename "$f")"
  rm "$out/$(basename "$f")"
done

for f in $(small "$reference"/frechet_gaussian_npy "$reference"/embedding | grep '\.npy$' | head -n 12); do seed npy "$f"; done

for f in $(small /usr/lib/python3/dist-packages/scipy/io/tests/data | grep '\.wav$'); do seed audio_file "$f" .wav; done
for f in $(small "$reference"/signal/audio | head -n 8); do seed audio_file "$f" .wav; done
for f in $(small /usr/share/asterisk/sounds/en_US_f_Allison/digits | head -n 4); do seed audio_file "$f" .g722; done

# The transcript list, a few dozen lines per seed (a whole list per input is slow).
transcripts=/usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz
if [ -f "$transcripts" ]; then
  mkdir -p "$out/asterisk_transcripts/seeds"
  gzip -dc "$transcripts" | split -l 40 - "$out/asterisk_transcripts/seeds/core-sounds-en-"
fi

# An example folder as an archive in each format the extractor reads.
if [ -d "$src/examples/asr" ]; then
  packed="$out/archive/packed"
  mkdir -p "$packed"
  tar -C "$src/examples" -cf "$packed/examples.tar" asr
  gzip -c "$packed/examples.tar" > "$packed/examples.tar.gz"
  xz -c "$packed/examples.tar" > "$packed/examples.tar.xz" 2>/dev/null || true
  (cd "$src/examples" && python3 -m zipfile -c "$packed/examples.zip" asr) 2>/dev/null || true
  for f in "$packed"/*; do seed archive "$f"; done
  rm -rf "$packed"
fi

for dir in "$out"/*/seeds; do
  echo "$(basename "$(dirname "$dir")"): $(find "$dir" -type f | wc -l) seeds"
done
