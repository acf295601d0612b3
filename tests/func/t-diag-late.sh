#!/bin/sh
# The diagnosis waits for device work recorded after its step (apps/diag-late: steps of
# 10 ms, each with a 6 ms kernel whose device record the completion thread writes late, as
# a busy machine makes the recorder do): a step is diagnosed once two later steps ended and
# a device span that ended after it came, or, the device idling, the events read came 1 s
# past its end (twice the latest a span came, once one comes later).  Records 5 steps
# (50 ms) late are all counted, as --parallel (which waits for everything) counts them, byte
# for byte; records 3 s late: the first ones come after their steps waited 1 s and are
# counted as late, every later one in its step; when the device idles after a kernel whose
# record comes 3 s late, its step waits 1 s: that kernel is late, and the text says so.
. "$(dirname "$0")/lib.sh"
need_mpi apps/diag-late
plan 7

"$APPS/diag-late" "$T/p50" 40 50 && "$APPS/diag-late" "$T/p3s" 600 3000 &&
	"$APPS/diag-late" "$T/idle" 200 50 10 3000
ok $? "the synthetic traces are written"

"$ANALYZE" "$T/p50" --diagnose --summary-format json >"$T/50.json" 2>"$T/err" &&
	"$ANALYZE" "$T/p50" --diagnose >"$T/50.txt" 2>>"$T/err"
ok $? "tprof-analyze --diagnose"
pycheck "records 5 steps late: every kernel counted in its step, none late" \
	all-counted "$T/50.json" 40

$MPIRUN $MPIRUN_FLAGS -np 2 "$ANALYZE" "$T/p50" --parallel --diagnose --summary-format json \
	>"$T/50p.json" 2>"$T/perr" &&
	$MPIRUN $MPIRUN_FLAGS -np 2 "$ANALYZE" "$T/p50" --parallel --diagnose >"$T/50p.txt" \
		2>>"$T/perr"
check "2 analysis processes write the same diagnosis, text and JSON" \
	sh -c 'cmp "$1/50.json" "$1/50p.json" && cmp "$1/50.txt" "$1/50p.txt"' - "$T"

"$ANALYZE" "$T/p3s" --diagnose --summary-format json >"$T/3s.json" 2>"$T/err"
# The first record comes at 3.018 s, the latest host event before it starts at 3.011 s:
# steps 0 to 199 ended 1 s before that.
pycheck "records 3 s late: the first kernels late (at most 200), every later one counted" \
	some-late "$T/3s.json" 600 200

"$ANALYZE" "$T/idle" --diagnose --summary-format json >"$T/idle.json" 2>"$T/err" &&
	"$ANALYZE" "$T/idle" --diagnose >"$T/idle.txt" 2>>"$T/err"
pycheck "the device idles after a kernel recorded 3 s late: its step waited 1 s, it is late" \
	last-late "$T/idle.json" 200 10
check "the text says how many came after their step was diagnosed" \
	grep -q "^  1 spans came after their step was diagnosed (it waited 2 steps, and 1 s or more when no later device span came): not counted" "$T/idle.txt"
finish
