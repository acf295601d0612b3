#!/bin/sh
# The import's items under ThreadSanitizer: full runs are sorted and written on a thread of
# their own while the next one fills; the unit test (many runs, in order and not) runs to the
# end with no report.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-import-items-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
plan 2

tsan "the unit test passes under ThreadSanitizer" "$bin"
finish
