#!/bin/sh
# Builds IPAdic 2.7.0-20070801 exactly as released (392126 entries), the
# dictionary sacreBLEU's ja-mecab tokenizer asserts and the PyPI `ipadic`
# package ships, from the CSV sources of Debian's mecab-ipadic package.
# Debian patched one entry in (Noun.proper.csv: 令和, 2019); this removes that
# line again and compiles the rest as Debian's postinst does (EUC-JP sources,
# UTF-8 dictionary). About a second; needs mecab-ipadic and mecab-utils.
#
#   scripts/build_sacrebleu_ipadic.sh OUTPUT_DIR [SOURCE_DIR]
#
# Then: JapaneseTokenizer({.dictionary = OUTPUT_DIR}).is_sacrebleu_dictionary() is true.
set -eu
out=${1:?usage: $0 OUTPUT_DIR [SOURCE_DIR]}
src=${2:-/usr/share/mecab/dic/ipadic}
indexer=/usr/lib/mecab/mecab-dict-index
[ -x "$indexer" ] || { echo "$0: $indexer is missing (apt-get install mecab-utils)" >&2; exit 1; }
[ -f "$src/Noun.proper.csv" ] || { echo "$0: no IPAdic sources in $src (apt-get install mecab-ipadic)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src"/*.csv "$src"/*.def "$src"/dicrc "$work"/
# The Reiwa line, in the sources' EUC-JP encoding.
reiwa=$(printf '令和,1288,1288,5904,名詞,固有名詞,一般,*,*,*,令和,レイワ,レイワ' | iconv -f UTF-8 -t EUC-JP)
LC_ALL=C grep -v -x -F -e "$reiwa" "$src/Noun.proper.csv" > "$work/Noun.proper.csv" || true
mkdir -p "$out"
"$indexer" -d "$work" -o "$out" -f EUC-JP -t UTF-8 > "$work/index.log" 2>&1 || { cat "$work/index.log" >&2; exit 1; }
sed 's,EUC-JP,UTF-8,g' "$src/dicrc" > "$out/dicrc"
