#!/bin/sh
# The recorder's buffers under ThreadSanitizer: no data race reported, and every event the
# 24 short-lived threads recorded (through 16 KB buffers, with synchronous flushes racing the
# flusher) is in the trace.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-buffer-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
plan 4

out="$T/out"
TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" "$bin" "$out" >"$T/stdout" 2>"$T/stderr"
rc=$?
ok $rc "runs to the end under ThreadSanitizer (status $rc)"
if grep -q "ThreadSanitizer" "$T/stderr"; then
	ok 1 "no ThreadSanitizer report"
	sed 's/^/# /' "$T/stderr" | head -60
else
	ok 0 "no ThreadSanitizer report"
fi
"$ANALYZE" "$out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "the trace is readable"
check "every range, mark and counter sample is in the trace" py '
import json, sys
want = dict(kv.split("=") for kv in open(sys.argv[2]).read().split())
ev = json.load(open(sys.argv[1]))["traceEvents"]
got = {"ranges": sum(1 for e in ev if e["ph"] == "X" and e["cat"] == "range"),
       "marks": sum(1 for e in ev if e["ph"] == "i"),
       "counters": sum(1 for e in ev if e["ph"] == "C")}
want = {k: int(v) for k, v in want.items()}
if got != want:
    sys.exit("got %s, want %s" % (got, want))
' "$T/trace.json" "$T/stdout"
finish
