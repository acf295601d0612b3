#!/bin/sh
# tprof-analyze --import converting a generated Chrome trace of every phase (tests/tools/
# mk-chrome-trace, 30000 events) alone to Chrome, Perfetto and OTF2: the count of each kind of
# record follows from the input's, phase by phase, and the flows keep their ends' times.  The
# import's runs spilled to disk (many small ones) give the same Chrome trace as one run in
# memory.  Flow events that lie in no slice (the generator's pipeline flows, as Chrome's own
# trace files allow) are kept as instants carrying the arrow in Perfetto: as many as the
# Chrome trace has outside its slices.
. "$(dirname "$0")/lib.sh"
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
GEN="$top_builddir/tests/tools/mk-chrome-trace"
plan 9

"$GEN" -n 30000 -o "$T/gen.json" >"$T/gen.count" 2>&1
ok $? "mk-chrome-trace writes 30000 events of every phase"

pycheck "the input's phases counted" count-input "$T/gen.json" "$T/want.json"

TPROF_TEST_IMPORT_RUN_KB=64 "$ANALYZE" --import "$T/gen.json" -f chrome -o "$T/runs.json" \
	2>"$T/runs.err" &&
	"$ANALYZE" --import "$T/gen.json" -f chrome -o "$T/one.json" 2>"$T/one.err" &&
	cmp -s "$T/runs.json" "$T/one.json"
ok $? "runs of 64 KiB spilled and merged: the same Chrome trace as one run in memory"

pycheck "Chrome: slices, instants, counter samples, async ranges and flow ends as the input holds" \
	chrome-counts "$T/one.json" "$T/want.json"

pycheck "Chrome: every flow start and end at its time, to the nanosecond" \
	flow-times "$T/one.json" "$T/want.json"

# flow ends that lie in no slice of their thread in the Chrome trace
"$PY" -B "$CHECKS" flows-outside "$T/one.json" >"$T/outside.txt"

"$ANALYZE" --import "$T/gen.json" -f perfetto -o "$T/gen.pftrace" 2>/dev/null &&
	"$PY" "$PFTRACE" compare --flows-outside-slices "$T/gen.pftrace" "$T/one.json" \
		>"$T/pf.json" 2>"$T/pf.err"
ok $? "Perfetto: protoc decodes it and it holds what the Chrome trace does"
[ -s "$T/pf.err" ] && diag "$(tail -n 5 "$T/pf.err")"

pycheck "Perfetto: the counts; flow ends outside slices as many as in Chrome "\
"($(cat "$T/outside.txt"))" \
	perfetto-counts "$T/pf.json" "$T/want.json" "$T/outside.txt"

if command -v otf2-print >/dev/null 2>&1; then
	"$ANALYZE" --import "$T/gen.json" -f otf2 -o "$T/gen.otf2" 2>/dev/null &&
		otf2-print "$T/gen.otf2/traces.otf2" >"$T/otf2.txt" 2>&1
	ok $? "OTF2: otf2-print reads the archive"
	pycheck "OTF2: ENTER and LEAVE for slices, instants and async ranges, METRIC for counters" \
		otf2-counts "$T/otf2.txt" "$T/want.json"
else
	skip "otf2-print is not installed"
	skip "otf2-print is not installed"
fi
