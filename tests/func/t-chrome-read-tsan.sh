#!/bin/sh
# The Chrome JSON import reader under ThreadSanitizer: its unit test (gzip files inflated on a
# helper thread, read to the end, stopped early, damaged) runs to the end with no report.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-chrome-read-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
plan 2

TSAN_OPTIONS="halt_on_error=1 exitcode=66" "$bin" >"$T/stdout" 2>"$T/stderr"
rc=$?
ok $rc "the unit test passes under ThreadSanitizer (status $rc)"
grep '^not ok' "$T/stdout" | sed 's/^/# /'
if grep -q "ThreadSanitizer" "$T/stderr"; then
	ok 1 "no ThreadSanitizer report"
	sed 's/^/# /' "$T/stderr" | head -60
else
	ok 0 "no ThreadSanitizer report"
fi
finish
