#!/bin/sh
# The import's items under ThreadSanitizer: full runs are sorted and written on a thread of
# their own while the next one fills; the unit test (many runs, in order and not) runs to the
# end with no report.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-import-items-tsan"
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
