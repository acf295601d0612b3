#!/bin/sh
# The Chrome JSON import reader under ThreadSanitizer: its unit test (gzip files inflated on a
# helper thread, read to the end, stopped early, damaged) runs to the end with no report.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-chrome-read-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
plan 2

tsan "the unit test passes under ThreadSanitizer" "$bin"
finish
