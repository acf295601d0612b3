#!/bin/sh
# Annotations made in a signal handler are recorded or counted as lost, one by one: a timer
# interrupts a loop that spends most of its time inside a wrapped runtime call (the minimal
# HIP runtime's hipDeviceSynchronize), and each handler marks "signal" and opens and closes a
# range "handler".  Every handler's three records are either in the profile or counted under
# "made inside the recorder"; the main loop's records are all there.
. "${top_srcdir}/tests/func/lib.sh"
[ -x "$APPS/signals" ] || skip_all "apps/signals was not built"
plan 4

H=400
MINIMAL_HIP_SYNC_US=300 record_env "$T/out" "$APPS/signals" "$H" 200 >"$T/app.out" 2>"$T/app.err"
rc=$?
# (a handler may run once more before the timer is off: the program says how many ran)
RAN=$(sed -n 's/^handlers=\([0-9]*\) loops=[0-9]*$/\1/p' "$T/app.out")
LOOPS=$(sed -n 's/^handlers=[0-9]* loops=\([0-9]*\)$/\1/p' "$T/app.out")
test "$rc" -eq 0 && test "${RAN:-0}" -ge "$H"
ok $? "the program ran ${RAN:-no} handlers (at least $H) and exited 0 (status $rc)"
"$ANALYZE" "$T/out" --summary=json >"$T/sum.json" 2>"$T/analyze.err"
check "the summary is written" test -s "$T/sum.json"
[ -s "$T/sum.json" ] || diag "$(cat "$T/analyze.err" "$T/app.err")"

pycheck "every handler record is in the profile or counted as lost (reentered), nothing else lost" \
	handler-records "$T/sum.json" "${RAN:-0}"

pycheck "the main loop's ranges and marks are all there, none cut or unmatched" \
	main-loop "$T/sum.json" "${LOOPS:-0}"
finish
