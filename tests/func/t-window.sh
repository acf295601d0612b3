#!/bin/sh
# The window options of tprof-analyze, on ten steps of known shape (apps/steps.c).  What a
# window must hold is worked out from the full, unwindowed trace: every range or step that
# overlaps the window (by more than an instant), cut to it and flagged clipped:true where
# it was cut; every mark and counter sample inside it.  Bad window options are errors that
# name the option.  A range still open at exit is flagged unfinished:true.
. "$(dirname "$0")/lib.sh"
plan 18

"$INSPECT" -o "$T/out" -- "$APPS/steps" 10 >"$T/out.txt" 2>"$T/err.txt" && grep -qx 'steps=10' "$T/out.txt"
ok $? "the program runs under tprof-inspect"
"$ANALYZE" "$T/out" --format chrome -o "$T/full.json" 2>"$T/analyze.err" &&
	"$PY" -B "$CHECKS" full-trace "$T/full.json"
ok $? "the full trace holds steps 0-9 and every range, mark and counter sample, none flagged"


# --steps 3:5, with the summary at the same time.
"$ANALYZE" "$T/out" --steps 3:5 --summary -o "$T/w35.json" >"$T/w35.summary" 2>"$T/w35.err"
ok $? "--steps 3:5 succeeds"
pycheck "--steps 3:5: the Chrome trace is valid JSON" valid-json "$T/full.json" "$T/w35.json"
pycheck "--steps 3:5: exactly the ranges, marks and counter samples of steps 3-5; cross-a and cross-b clipped" \
	steps-events "$T/full.json" "$T/w35.json" 3 5
pycheck "--steps 3:5: the step track holds steps 3, 4 and 5, whole, and nothing of steps 2 or 6" \
	steps-steps "$T/full.json" "$T/w35.json" 3 5
pycheck "--steps 3:5: the summary names the window and lists exactly its five ranges" \
	summary-ranges "$T/w35.summary"
pycheck "--steps 3:5: the summary counts 3 steps and 17 events (5 ranges, 6 marks, 3 samples, 3 steps)" \
	summary-counts "$T/w35.summary"

# --steps 7: one step.
"$ANALYZE" "$T/out" --steps 7 -o "$T/w7.json" 2>"$T/w7.err" &&
	"$PY" -B "$CHECKS" steps-all "$T/full.json" "$T/w7.json" 7 7
ok $? "--steps 7: exactly step 7 and what lies in it (r 7, m 7, late 7, c=7, cross-b clipped)"

# --start/--end in microseconds: from the middle of "r 2" to the middle of "r 6".
bounds=$("$PY" -B "$CHECKS" print-middles "$T/full.json")
set -- $bounds
S_US=${1:-0} E_US=${2:-0}
"$ANALYZE" "$T/out" --start "$S_US" --end "$E_US" -o "$T/wse.json" --summary >"$T/wse.summary" 2>"$T/wse.err" &&
	"$PY" -B "$CHECKS" start-end "$T/full.json" "$T/wse.json" "$S_US" "$E_US"
ok $? "--start $S_US --end $E_US: exactly the expected events, r 2, r 6 and steps 2 and 6 clipped"
grep -q "^  window: *--start $S_US --end $E_US: " "$T/wse.summary"
ok $? "--start/--end: the summary names the window"

# Bad window options: an error naming the option, no trace written.
bad() {
	_opt=$1
	shift
	rm -f "$T/bad.json"
	"$ANALYZE" "$T/out" "$@" -o "$T/bad.json" >"$T/bad.out" 2>"$T/bad.err"
	_rc=$?
	[ "$_rc" -ne 0 ] && grep -q -e "$_opt" "$T/bad.err" && [ ! -e "$T/bad.json" ]
	ok $? "$* is an error (exit $_rc) naming $_opt, and writes no trace"
	[ "$_rc" -ne 0 ] || diag "stderr: $(cat "$T/bad.err")"
}
bad --steps --steps 9:3
bad --steps --steps x
bad --steps --steps 42
bad --start --start abc
bad --end --end -5
bad --end --start 200 --end 100

# A range left open at exit.
"$INSPECT" -o "$T/open" -- "$APPS/steps" 1 open >/dev/null 2>&1 &&
	"$ANALYZE" "$T/open" --format chrome -o "$T/open.json" 2>"$T/open.err" &&
	"$PY" -B "$CHECKS" open-range "$T/open.json"
ok $? "a range open at exit is in the trace once, flagged unfinished:true, and nothing else is"
finish
