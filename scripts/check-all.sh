#!/bin/sh
# check-all.sh — the whole test suite, as CI runs it: installs what is missing, builds and
# runs `make check`, builds again with ASan+UBSan and runs it again, then `make distcheck`.
# Each stage prints its result; the script stops at the first failure.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"

stage() { printf '\n=== %s\n' "$*"; }
check() {
	dir=$1
	shift
	stage "build in $dir ($*)"
	"$top/scripts/build.sh" "$dir" "$@"
	stage "make check in $dir"
	if ! make -C "$dir" check -j"$(nproc)" >"$dir/check.out" 2>&1; then
		grep -E '^(FAIL|ERROR|XPASS)' "$dir/check.out" || true
		find "$dir/tests" -name '*.log' -newer "$dir/Makefile" -exec grep -l '^not ok\|^ERROR' {} + 2>/dev/null |
			while read -r log; do echo "--- $log"; grep -v '^ok' "$log" | head -40; done
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
	tail -40 "$top/build/distcheck.out"
	echo "check-all: make distcheck failed" >&2
	exit 1
}
grep -E 'archives ready|\.tar\.gz' "$top/build/distcheck.out" | head -3
echo
echo "check-all: everything passed"
