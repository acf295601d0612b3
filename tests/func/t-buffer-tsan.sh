#!/bin/sh
# The recorder's buffers under ThreadSanitizer: no data race reported, and every event the
# 24 short-lived threads recorded (through 16 KB buffers, with synchronous flushes racing the
# flusher) is in the trace.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-buffer-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
plan 4

out="$T/out"
tsan "runs to the end under ThreadSanitizer" "$bin" "$out"
"$ANALYZE" "$out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "the trace is readable"
pycheck "every range, mark and counter sample is in the trace" \
	every-event "$T/trace.json" "$T/stdout"
finish
