#!/usr/bin/env bash
# Side by side: aeval's signal and embedding metrics and their Python
# computations, one core each, same inputs, one run. Needs a Release build,
# the golden vectors in ../shared/reference and python3-torchaudio
# (bench/compare/setup-python-references.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/../.."
reference=${AEVAL_REFERENCE_DIR:-../shared/reference}
[ -d "$reference/signal" ] || { echo "missing $reference/signal" >&2; exit 1; }
ours=$(taskset -c 0 build/bench/aeval_bench_signal "$reference")
theirs=$(taskset -c 0 /usr/bin/python3 bench/compare/signal_metrics_reference.py "$reference")
echo "$theirs"
echo
/usr/bin/python3 - "$ours" "$theirs" <<'PY'
import sys
ours = dict(line.split("\t") for line in sys.argv[1].splitlines())
theirs = {}
for line in sys.argv[2].splitlines()[1:]:
    name, rest = line[:40].strip(), line[40:].split()
    if len(rest) == 3:
        theirs[name] = float(rest[2])
print(f"{'metric':40} {'aeval ms':>10} {'python ms':>10} {'speed-up':>9}")
for name, ms in ours.items():
    ref = theirs.get(name)
    ratio = f"{ref / float(ms):8.1f}x" if ref else "    (n/a)"
    print(f"{name:40} {float(ms):10.2f} {ref if ref else float('nan'):10.2f} {ratio}")
PY
