#!/bin/sh
# quickstart.sh — from a fresh checkout to a profile: installs what is missing, builds, runs
# the bundled multi-threaded sample (examples/train-sim.c) under tprof-inspect, prints its
# summary and writes its Chrome trace (open it at https://ui.perfetto.dev).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh"
b="$top/build"
out="$b/sample-profile"
rm -rf "$out"
"$b/cli/tprof-inspect" -o "$out" -- "$b/examples/train-sim" 30 4
"$b/analyze/tprof-analyze" "$out" --summary
"$b/analyze/tprof-analyze" "$out" --format chrome -o "$b/sample-trace.json.gz"
echo
echo "Chrome trace: $b/sample-trace.json.gz  (open it in https://ui.perfetto.dev)"
