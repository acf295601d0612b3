#!/bin/sh
# The recorder's handle table (preload/core/handles.h) under ThreadSanitizer: threads claim,
# look up and remove keys at once, claim the same keys at once, and publish entries filled
# under a lock to readers without one; the unit test (unit/test-handles.c) runs to the end,
# every answer right, with no report.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-handles-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
plan 2

tsan "the unit test passes under ThreadSanitizer" "$bin"
finish
