#!/bin/sh
# tprof.torch.profile on a small training loop (apps/python-torch.py), run by Debian's own
# python3 with its PyTorch (python3-torch, 1.13, without Kineto): under tprof-inspect,
# PyTorch's trace lands in the profile directory as <host>.<pid>.pt.trace.json, one JSON
# object with the "tprof" key, ProfilerStep#N for every step at the moment tprof's step N
# begins, pid and tid rewritten; without the profiler it lands in the directory given, or
# the current one; with a schedule, one trace a cycle.
. "$(dirname "$0")/lib.sh"
need_torch
plan 17

APP="$top_srcdir/tests/apps/python-torch.py"
PYDIR=$(cd "$top_srcdir/python" && pwd -P)
export PYTHONDONTWRITEBYTECODE=1
mkdir "$T/rec" "$T/plain" "$T/given"

(cd "$T/rec" && "$INSPECT" -o "$T/out" -- "$SYS_PY" "$APP" "$T/rec.facts") >"$T/rec.out" 2>"$T/rec.err"
rc=$?
ok $rc "the training loop runs under tprof-inspect (exit status 0)"
[ $rc -eq 0 ] || diag "$(cat "$T/rec.err")"
# The trace written, named as tprof.torch names it.
trace=$("$PY" -B "$CHECKS" print-trace-path "$T/rec.facts" "$T/out" 2>/dev/null)
pycheck "the trace is in the profile directory as <host>.<pid>.pt.trace.json, and nothing else is" \
	trace-alone "$T/rec.facts" "$T/out" "$trace" "$T/rec"
pycheck "one JSON object: \"tprof\" (host, pid, the loop's tid, source, torch, base_us, threads), traceEvents" \
	tprof-key "$T/rec.facts" "$trace"
pycheck "ProfilerStep#0 to #6, once each, in order, on the loop's thread" \
	profiler-steps "$T/rec.facts" "$trace"
pycheck "events have the process id; the loop thread its native tid, the inter-op thread minus its number" \
	pids-tids "$T/rec.facts" "$trace"
pycheck "the record_function named with a quote, a backslash and a tab is there 6 times, exactly" \
	odd-name "$T/rec.facts" "$trace"
"$ANALYZE" "$T/out" --summary=json >"$T/summary.json" 2>"$T/analyze.err" &&
	"$ANALYZE" "$T/out" --format chrome -o "$T/chrome.json" 2>>"$T/analyze.err"
ok $? "tprof-analyze reads the profile (--summary=json, --format chrome)"
"$ANALYZE" "$T/out" --summary >"$T/summary.txt" 2>/dev/null
pycheck "one process, its PyTorch trace merged into it (not counted as one more); text and JSON agree" \
	merged "$T/summary.json" "$trace" "$T/summary.txt" \
	"$top_srcdir/tests/tools/summary-compare.py"
"$ANALYZE" -v --import "$trace" --summary=json >"$T/alone.json" 2>"$T/alone.err"
pycheck "the PyTorch trace alone: on the date its base_us gives, and said to be placed by it" \
	dated-alone "$T/alone.json" "$trace" "$T/alone.err"
pycheck "tprof's steps 0 to 6 are in the profile" tprof-steps "$T/summary.json"
# The helper begins ProfilerStep#N right before tprof.step(N): the clocks' agreement is
# judged on the median step (steps-together says why).
pycheck "tprof's step N and ProfilerStep#N begin together (the median within 30 ms; each before step N+1)" \
	steps-together "$T/chrome.json" "$trace"
pycheck "tprof's last step ends when profiling stops (before the mark made after it), not at the exit" \
	last-step-end "$T/chrome.json"

# ---- without the profiler ----------------------------------------------------------------
(cd "$T/plain" && env -u TPROF_ENABLE -u LD_PRELOAD PYTHONPATH="$PYDIR" "$SYS_PY" "$APP" \
	"$T/plain.facts") >"$T/plain.out" 2>"$T/plain.err"
ok $? "without the profiler the loop runs too (exit status 0)"
check "it prints the same" cmp -s "$T/rec.out" "$T/plain.out"
pycheck "the trace lands in the current directory, in the same form; tprof.enabled() is False" \
	plain-cwd "$T/plain.facts" "$T/plain"
(cd "$T/plain" && env -u TPROF_ENABLE -u LD_PRELOAD PYTHONPATH="$PYDIR" "$SYS_PY" "$APP" \
	"$T/given.facts" "$T/given/sub") >/dev/null 2>"$T/given.err"
pycheck "or in the directory given, created if missing" given-dir "$T/given.facts" "$T/given/sub"
mkdir "$T/sched"
check "a schedule of two cycles: traces <host>.<pid> and <host>.<pid>.2, with the steps each recorded" \
	env -u TPROF_ENABLE -u LD_PRELOAD PYTHONPATH="$PYDIR" "$SYS_PY" -B "$CHECKS" \
	schedule-cycles "$T/sched"
finish
