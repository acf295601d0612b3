#!/bin/sh
# NCCL end to end: 4 MPI ranks all-reducing, broadcasting, all-gathering, reduce-scattering,
# reducing, in groups and in a ring of sends, on the world communicator and on its two halves,
# through the stand-in NCCL over the stand-in HIP runtime (apps/nccl-ranks checks every
# result and exits 0 only when all are right, and rank 0 prints the truth: its collectives in
# call order).  Recorded both ways (tprof-inspect around mpirun, and mpirun around
# tprof-inspect), then analyzed: every collective of the truth is found on all the ranks of
# its communicator and linked, each device span lies on its (device, stream) track with the
# arrow from its call, sends are linked to their receives, no two spans of a stream overlap
# and no arrow goes back in time (in Chrome and in OTF2), and the summary's bandwidths and
# waits are nccl-tests' formulas on the recorded bytes and times.  Then ranks made by fork
# (apps/nccl-fork), RCCL (apps/rccl-ranks), --group-by domain and the OTF2 archive.
. "$(dirname "$0")/lib.sh"
[ -x "$APPS/nccl-ranks" ] ||
	skip_all "apps/nccl-ranks was not built (it needs mpicc, mpirun and the stand-in NCCL)"
need_mpi apps/nccl-ranks
[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnccl.so.2" ] &&
	[ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ] ||
	skip_all "no stand-in NCCL or HIP runtime (configure found no usable HIP headers)"
LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
plan 14
NP=4

"$INSPECT" -o "$T/p1" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/nccl-ranks" \
	>"$T/out1.txt" 2>"$T/err1.txt"
rc=$?
grep '^{"ranks"' "$T/out1.txt" >"$T/truth.json"
[ $rc -eq 0 ] && [ -s "$T/truth.json" ]
ok $? "tprof-inspect -- mpirun -np $NP nccl-ranks: every result right (exit $rc), the truth printed"
[ $rc -eq 0 ] || { diag "$(tail -5 "$T/err1.txt")"; }

"$ANALYZE" "$T/p1" -v -f chrome -o "$T/t1.json" -s >"$T/sum1.txt" 2>"$T/aerr1.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

pycheck "every collective of the truth is on all the ranks of its communicator, one instance, \
linked" truth-linked "$T/t1.json" "$T/truth.json" $NP "$T/aerr1.txt"

pycheck "each device span on its (device, stream) track, with the arrow from its call \
(groups: ncclGroupEnd)" stream-tracks "$T/t1.json"

pycheck "each send is an arrow from the sender's span to the receiver's" send-arrows \
	"$T/t1.json" "$T/truth.json" $NP

pycheck "summary: every row's algbw, busbw and wait are nccl-tests formulas on the recorded \
bytes and times" summary-bandwidth "$T/t1.json" "$T/sum1.txt"

grep -q "instances:   [0-9,]*, 0 incomplete" "$T/sum1.txt" && grep -q "^NCCL API" "$T/sum1.txt" &&
	grep -q "ncclCommInitRank" "$T/sum1.txt" && grep -q "^NCCL send/receive" "$T/sum1.txt"
ok $? "summary: NCCL API, no incomplete instance, the send/receive pairs"

"$MPIRUN" $MPIRUN_FLAGS -np $NP "$INSPECT" -o "$T/p2" -- "$APPS/nccl-ranks" \
	>"$T/out2.txt" 2>"$T/err2.txt" &&
	grep -q '^{"ranks"' "$T/out2.txt" &&
	"$ANALYZE" "$T/p2" -f chrome -o "$T/t2.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" truth-matched "$T/t2.json" "$T/truth.json" $NP
ok $? "mpirun -np $NP tprof-inspect -- nccl-ranks: the same, matched across the four profiles"

if [ -x "$APPS/nccl-fork" ]; then
	"$INSPECT" -o "$T/p3" -- "$APPS/nccl-fork" $NP >"$T/out3.txt" 2>"$T/err3.txt" &&
		"$ANALYZE" "$T/p3" -f chrome -o "$T/t3.json" -s >"$T/sum3.txt" 2>/dev/null &&
		"$PY" -B "$CHECKS" fork-ranks "$T/t3.json" $NP "$T/sum3.txt"
	ok $? "ranks made by fork (nccl-fork $NP): every AllReduce found on all $NP processes, \
bandwidth as the formulas give"
else
	skip "apps/nccl-fork was not built"
fi

if [ -x "$APPS/rccl-ranks" ] && [ -e "$STANDIN_LIBDIR/librccl.so.1" ]; then
	"$INSPECT" -o "$T/p4" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/rccl-ranks" \
		>"$T/out4.txt" 2>"$T/err4.txt" &&
		grep '^{"ranks"' "$T/out4.txt" >"$T/truth4.json" &&
		"$ANALYZE" "$T/p4" -f chrome -o "$T/t4.json" 2>/dev/null &&
		"$PY" -B "$CHECKS" rccl "$T/t4.json" "$T/truth4.json" $NP
	ok $? "RCCL (rccl-ranks over librccl.so.1): the same, calls flagged RCCL"
else
	skip "apps/rccl-ranks or the stand-in librccl.so.1 was not built"
fi

"$ANALYZE" "$T/p1" -f chrome -o "$T/dom.json" --group-by domain 2>/dev/null &&
	"$PY" -B "$CHECKS" by-domain "$T/dom.json" "$T/t1.json"
ok $? "--group-by domain: the same spans in the GPU group, the same arrows"

pycheck "no two spans on one stream overlap; no arrow ends before it starts (groups: none \
before ncclGroupEnd)" no-overlap "$T/t1.json"

if [ "${OTF2_PRINT:-no}" != no ] && [ -x "${OTF2_PRINT:-}" ]; then
	. "$(dirname "$0")/lib-otf2.sh"
	"$ANALYZE" "$T/p1" -f otf2 -o "$T/otf2" 2>/dev/null &&
		"$OTF2_PRINT" "$T/otf2/traces.otf2" >"$T/otf2.txt" 2>"$T/otf2.err" &&
		! grep -q . "$T/otf2.err" &&
		"$OTF2_PRINT" -G "$T/otf2/traces.otf2" >"$T/otf2.defs" 2>>"$T/otf2.err" &&
		! grep -q . "$T/otf2.err" &&
		grep -q 'Name: "ncclAllReduce".*Descr.: "NCCL call"' "$T/otf2.defs" &&
		grep -q 'Name: "ncclGroupEnd".*Descr.: "device collective"' "$T/otf2.defs" &&
		grep -q 'Name: "ncclAllReduce".*Descr.: "device collective"' "$T/otf2.defs"
	ok $? "OTF2: otf2-print reads the archive; NCCL calls and device collectives are regions"
	otf2_print "$T/otf2/traces.otf2" "$T/o.txt" &&
		"$PY" -B "$CHECKS_DIR/lib-otf2.py" device-spans-match "$T/o.txt" "$T/t1.json"
	ok $? "OTF2: on each stream one collective after the other, at the times of the Chrome \
trace"
else
	skip "otf2-print not found (configure looks for it)"
	skip "otf2-print not found (configure looks for it)"
fi
finish
