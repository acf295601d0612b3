#!/bin/sh
# check-all.sh — the whole test suite, as CI runs it: installs what is missing, then
# `make distcheck` (the release tarball, built out of tree from its own files, its whole
# `make check`, then installed and uninstalled), then a build with ASan+UBSan and its
# `make check`, then each of the analyzer's fuzz targets (`make fuzz`) from its corpus, seeds
# and kept findings, for CHECK_FUZZ_TIME seconds (60 by default; 0 replays each corpus once),
# then the README replayed as a newcomer (scripts/replay-readme.sh: a fresh clone of the
# committed state, quickstart installing into /usr/local as root, the README's commands).
# Each stage prints its result and how long it took; the script stops at the first failure
# and prints what failed last, so that the tail of its output names it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)
"$top/scripts/install-deps.sh"

started=$(date +%s)
stage() { printf '\n=== %s (at %d s)\n' "$*" "$(($(date +%s) - started))"; }
# failures OUT DIR: each failed test's log without its passing lines (what is left is what
# failed, with the test's diagnostics and what it wrote to stderr), then the failed tests'
# result lines, printed last so that the output's tail names what failed and why.
failures() {
	find "$2" -name '*.log' -path '*tests*' ! -name test-suite.log \
		-exec grep -l '^not ok\|^ERROR\|^FAIL' {} + 2>/dev/null |
		while read -r log; do echo "--- $log"; grep -v '^ok\|^PASS' "$log" | tail -40; done
	echo "--- failed:"
	grep -E '^(FAIL|ERROR|XPASS)' "$1" || true
}
# totals LOG...: the suite's counts, then every skipped test (there should be none).
totals() {
	grep -h -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$1"
	grep -h '^SKIP' "$@" 2>/dev/null | sort -u || true
}

# The plain build's suite runs inside distcheck, on the tarball's files alone.
stage "configure in $top/build"
mkdir -p "$top/build"
[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
(cd "$top/build" && { [ -f Makefile ] || "$top/configure" -q; })
stage "make distcheck in $top/build (make check of the tarball's build)"
if ! make -C "$top/build" -j"$jobs" distcheck >"$top/build/distcheck.out" 2>&1; then
	tail -20 "$top/build/distcheck.out"
	failures "$top/build/distcheck.out" "$top/build"
	echo "check-all: make distcheck failed" >&2
	exit 1
fi
totals "$top/build/distcheck.out"
grep -A2 'archives ready' "$top/build/distcheck.out" | grep -v '^=*$' || true

dir=$top/build-sanitizers
stage "build in $dir (--enable-sanitizers)"
"$top/scripts/build.sh" "$dir" --enable-sanitizers
stage "make check in $dir"
if ! make -C "$dir" check -j"$jobs" >"$dir/check.out" 2>&1; then
	failures "$dir/check.out" "$dir/tests"
	echo "check-all: make check failed in $dir" >&2
	exit 1
fi
totals "$dir/tests/test-suite.log" "$dir"/tests/*/*.log "$dir"/tests/*.log
fuzz_time=${CHECK_FUZZ_TIME:-60}
stage "make fuzz FUZZ_TIME=$fuzz_time (0: each target's corpus once)"
if ! make -C "$top/build" fuzz FUZZ_TIME="$fuzz_time" >"$top/build/fuzz.out" 2>&1; then
	grep -E '^fuzz:|inputs run|cov:' "$top/build/fuzz.out" || tail -40 "$top/build/fuzz.out"
	grep -A20 'found a problem' "$top/build/fuzz.out" | grep -v '^fuzz: [a-z]* for' || true
	echo "check-all: make fuzz found a problem (inputs in $top/build/fuzz-build/fuzz-findings)" >&2
	exit 1
fi
grep -E '^fuzz:|inputs run|cov:' "$top/build/fuzz.out"
stage "replay the README as a newcomer (scripts/replay-readme.sh, in a fresh clone)"
rc=0
"$top/scripts/replay-readme.sh" >"$top/build/replay-readme.out" 2>&1 || rc=$?
if [ "$rc" -eq 77 ]; then
	cat "$top/build/replay-readme.out" # a tarball's tree: the line saying so
elif [ "$rc" -ne 0 ]; then
	tail -40 "$top/build/replay-readme.out"
	echo "check-all: the README's replay failed (all of it in $top/build/replay-readme.out)" >&2
	exit 1
else
	sed -n '/^replay-readme: the README/,$p' "$top/build/replay-readme.out"
fi
stage "done"
echo "check-all: everything passed"
