#!/bin/sh
# quickstart.sh — from a fresh checkout to a profile: installs what is missing, builds,
# installs tprof into PREFIX (default /usr/local; $HOME/.local when that cannot be written),
# runs the bundled multi-threaded sample (examples/train-sim.c) under the installed
# tprof-inspect, prints its summary and writes its Chrome trace (open it at
# https://ui.perfetto.dev).  Ends saying whether tprof-inspect and tprof-analyze are on PATH,
# and if not, the line that puts them there.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
if [ -z "${PREFIX:-}" ]; then
	PREFIX=/usr/local
	if [ "$(id -u)" -ne 0 ] && ! [ -w "$PREFIX/bin" ]; then
		PREFIX=$HOME/.local
	fi
fi
b="$top/build"
"$top/scripts/build.sh" "$b" --prefix="$PREFIX"
configured=$(sed -n 's/^prefix = //p' "$b/Makefile")
if [ "$configured" != "$PREFIX" ]; then
	echo "quickstart: $b was configured for $configured; installing there" >&2
	PREFIX=$configured
fi
make -s -C "$b" install >/dev/null
echo "quickstart: installed into $PREFIX"
bin="$PREFIX/bin"
out="$b/sample-profile"
rm -rf "$out"
"$bin/tprof-inspect" -o "$out" -- "$b/examples/train-sim" 30 4
"$bin/tprof-analyze" "$out" --summary
"$bin/tprof-analyze" "$out" -o "$b/sample-trace.json.gz"
echo
echo "Chrome trace: $b/sample-trace.json.gz  (open it at https://ui.perfetto.dev)"
if [ "$(command -v tprof-inspect 2>/dev/null)" = "$bin/tprof-inspect" ]; then
	echo "tprof-inspect and tprof-analyze are in $bin, on your PATH"
else
	echo "Put tprof-inspect and tprof-analyze on your PATH:"
	echo "  export PATH=\"$bin:\$PATH\""
fi
