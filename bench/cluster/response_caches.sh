#!/usr/bin/env bash
# Response caches of shards (issue 20): what the per-shard design costs and what one shared file costs.
#   A) 4 writer processes, each putting 10,000 responses into one shared WAL cache at once (what shards would do
#      with one cache; safe on one machine only);
#   B) the same 4 processes each into a cache of its own, then `aeval cache import` of the four into one cache
#      (what `aeval submit slurm` does).
# The writers use Python's sqlite3 with aeval's schema and one transaction per response, as a run stores them.
# Usage: bench/cluster/response_caches.sh [build/aeval]
set -euo pipefail
aeval=${1:-build/aeval}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
writer=$work/writer.py
cat > "$writer" <<'PY'
import hashlib, json, sqlite3, sys
path, shard, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
db = sqlite3.connect(path, timeout=30, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA synchronous=NORMAL")
db.execute("CREATE TABLE IF NOT EXISTS responses(key TEXT PRIMARY KEY, response TEXT NOT NULL)")
db.execute("CREATE TABLE IF NOT EXISTS embeddings(key TEXT PRIMARY KEY, data BLOB NOT NULL)")
for i in range(count):
    key = hashlib.sha256(f"{shard}/{i}".encode()).hexdigest()
    text = json.dumps({"text": f"a transcript of sample {i} of shard {shard}, about as long as a sentence", "logprobs": None})
    db.execute("BEGIN IMMEDIATE"); db.execute("INSERT OR REPLACE INTO responses VALUES(?, ?)", (key, text)); db.execute("COMMIT")
PY
n=10000
seconds() { python3 -c 'import time; print(time.monotonic())'; }
start=$(seconds)
for s in 0 1 2 3; do python3 "$writer" "$work/shared.sqlite" $s $n & done; wait
shared=$(python3 -c "print(round($(seconds) - $start, 2))")
start=$(seconds)
for s in 0 1 2 3; do python3 "$writer" "$work/shard-$s.sqlite" $s $n & done; wait
own=$(python3 -c "print(round($(seconds) - $start, 2))")
start=$(seconds)
AEVAL_RESPONSE_CACHE=$work/mine.sqlite "$aeval" cache import "$work"/shard-*.sqlite > /dev/null
import=$(python3 -c "print(round($(seconds) - $start, 2))")
echo "4 writers x $n responses into one shared cache: ${shared} s"
echo "4 writers x $n responses, a cache each:         ${own} s"
echo "aeval cache import of the 4 ($((4 * n)) responses):  ${import} s"
