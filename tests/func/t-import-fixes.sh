#!/bin/sh
# What the import changes or leaves out of its input is counted by cause, never silent: a file
# written here holds one or more events of each cause (a negative dur, 100 E with no B, a second
# traceEvents array, an X without dur, no ts, an unknown phase, unused metadata, a process named
# twice, a name of the wrong type, a member given twice, a fractional pid, a counter value that
# is no number, a B never ended, a slice outliving its parent, async and flow ends without a
# begin and begins without an end, a top-level member twice and one of the wrong type, data
# after the JSON, a damaged event, no pid).  -v says one line per cause with its count and the
# offset of its first event; the summary's header shows every cause, and the events skipped
# among "skipped", in text and JSON.
. "$(dirname "$0")/lib.sh"
plan 7

# The file, and what each cause must count, and where it is first met.
"$PY" -B "$CHECKS" write-trace "$T/fix.json" "$T/fix.want"
ok $? "a trace of every cause written"

"$ANALYZE" --import "$T/fix.json" -v -f chrome -o "$T/fix.out.json" 2>"$T/fix.err"
ok $? "it converts"

# -v: one line per cause, its count and where it was first met
"$PY" -B "$CHECKS" verbose-lines "$T/fix.err" "$T/fix.want" /dev/stdin <<EOF
$("$ANALYZE" --import "$T/fix.json" --summary=json 2>/dev/null | "$PY" -B "$CHECKS" cause-keys)
EOF
ok $? "-v: each cause once, with its count and the offset of its first event"
grep "import:" "$T/fix.err" | sed 's/^/# /'

"$ANALYZE" --import "$T/fix.json" --summary=json >"$T/fix.sum.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" summary-causes "$T/fix.sum.json" "$T/fix.want"
ok $? "--summary=json: every cause with its count and first offset; the events skipped in skipped.imported"

"$ANALYZE" --import "$T/fix.json" --summary >"$T/fix.sum" 2>/dev/null &&
	grep -q "^  skipped:     108  \[imported events: 108\]" "$T/fix.sum" &&
	grep -q "^  import:      [0-9,]* events or values changed or left out" "$T/fix.sum" &&
	grep -q "^    100 E events with no B open on their thread: skipped" "$T/fix.sum" &&
	grep -q "^    2 X events with a negative dur: 0 taken" "$T/fix.sum" &&
	grep -q "^    1 traceEvents arrays after the first: their events read as well" "$T/fix.sum"
ok $? "the text summary's header: skipped counts them, and a line per cause"
grep "^  skipped\|^  import\|^    [0-9]" "$T/fix.sum" | sed 's/^/# /'

# The second traceEvents array's event is there; the negative durations are 0.
"$PY" -B "$CHECKS" late-and-negative "$T/fix.out.json"
ok $? "the second array's events are read; negative durations are 0, as said"

# A clean trace says nothing: no import line, nothing skipped.
"$ANALYZE" --import "$T/fix.out.json" --summary >"$T/clean.sum" 2>/dev/null
printf '%s\n' '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":2}]}' >"$T/clean.json"
"$ANALYZE" --import "$T/clean.json" --summary >"$T/clean.sum" 2>/dev/null &&
	grep -q "^  skipped:     0$" "$T/clean.sum" && ! grep -q "^  import:" "$T/clean.sum"
ok $? "a trace the import changes nothing of: no import line, skipped 0"
finish
