#!/usr/bin/env bash
# Takes docs/view.md's screenshots of `aeval view` with headless Chromium:
#   docs/view/screenshots.sh RESULTS_DIR [SAMPLE_POSITION]
# RESULTS_DIR holds the quickstart's run first and a second run of its dataset to compare with.
set -euo pipefail
cd "$(dirname "$0")/../.."
results=$1 position=${2:-4}
out=docs/view profile=$(mktemp -d)
build/aeval view "$results" --port 0 > "$profile/view.out" &
server=$!
trap 'kill $server; rm -rf "$profile"' EXIT
until grep -q http "$profile/view.out"; do sleep 0.2; done
url=$(grep -o 'http://[^ ]*' "$profile/view.out")
# The runs' ids, oldest first: the quickstart's run, then the one it is compared with.
mapfile -t ids < <(curl -s "${url}api/runs" | python3 -c 'import json,sys; [print(r["id"]) for r in reversed(json.load(sys.stdin)["runs"])]')
shot() {
  chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$profile/chromium" \
    --virtual-time-budget=30000 --hide-scrollbars --window-size=1280,"$2" --screenshot="$out/$1.png" "$url#$3" 2>/dev/null
}
shot runs 420 "/runs"
shot samples 900 "/run/${ids[0]}?sort=wer&order=desc"
shot sample 1000 "/run/${ids[0]}/sample/$position"
shot compare 700 "/compare?a=${ids[0]}&b=${ids[1]}&metric=wer"
shot boards 520 "/boards"
