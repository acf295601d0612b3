#!/bin/sh
# check-all.sh — the whole test suite, as CI runs it: installs what is missing, builds and
# runs `make check`, builds again with ASan+UBSan and runs it again, then `make distcheck`.
# Each stage prints its result; the script stops at the first failure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"

stage() { printf '\n=== %s\n' "$*"; }
# failures OUT DIR: the failed tests' result lines and the lines of their logs that are not
# "ok", printed last so that a log's tail names what failed.
failures() {
	find "$2" -name '*.log' -path '*tests*' -exec grep -l '^not ok\|^ERROR\|^FAIL' {} + 2>/dev/null |
		while read -r log; do echo "--- $log"; grep -v '^ok' "$log" | head -40; done
	echo "--- failed:"
	grep -E '^(FAIL|ERROR|XPASS)' "$1" || true
}
check() {
	dir=$1
	shift
	stage "build in $dir ($*)"
	"$top/scripts/build.sh" "$dir" "$@"
	stage "make check in $dir"
	if ! make -C "$dir" check -j"$(nproc)" >"$dir/check.out" 2>&1; then
		failures "$dir/check.out" "$dir/tests"
		echo "check-all: make check failed in $dir" >&2
		exit 1
	fi
	grep -E '^# (TOTAL|PASS|SKIP|XFAIL|FAIL|XPASS|ERROR):' "$dir/tests/test-suite.log"
	grep -h '^SKIP' "$dir"/tests/*/*.log "$dir"/tests/*.log 2>/dev/null | sort -u || true
}

check "$top/build"
check "$top/build-sanitizers" --enable-sanitizers
stage "make distcheck"
make -C "$top/build" distcheck >"$top/build/distcheck.out" 2>&1 || {
	tail -20 "$top/build/distcheck.out"
	failures "$top/build/distcheck.out" "$top/build"
	echo "check-all: make distcheck failed" >&2
	exit 1
}
grep -E 'archives ready|\.tar\.gz' "$top/build/distcheck.out" | head -3
echo
echo "check-all: everything passed"
