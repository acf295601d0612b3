#!/bin/sh
# tprof-analyze's NCCL outputs end to end, on the trace of a synthetic 4-rank job written by
# apps/nccl-synth (AllReduce, Broadcast, AllGather, a group with a ring of sends, AllReduces
# on a split communicator, and one AllReduce a rank never called): the Chrome trace puts
# each collective's device span on its (device, stream) track with the arrow from its call
# (from ncclGroupEnd for a group), gives every span its instance, rank, lag and the last rank,
# links the ranks' spans of one instance and each send with its receive, and marks the
# incomplete instance; the summary's bandwidths and waits are what nccl-tests' formulas give
# from the recorded bytes and times; --group-by domain and the OTF2 archive take them too.
. "$(dirname "$0")/lib.sh"
SYNTH="$APPS/nccl-synth"
[ -x "$SYNTH" ] || skip_all "apps/nccl-synth was not built"
plan 11

truth=$("$SYNTH" "$T/job") && [ -n "$truth" ]
ok $? "the synthetic job is written ($truth)"
INST=$(echo "$truth" | sed -n 's/.*instances=\([0-9]*\).*/\1/p')
COMPLETE=$(echo "$truth" | sed -n 's/.*complete=\([0-9]*\).*/\1/p')

"$ANALYZE" "$T/job" -f chrome -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/err.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

pycheck "every collective span is on its GPU stream track, with the arrow from its call \
(groups: ncclGroupEnd)" span-tracks "$T/t.json"

pycheck "$INST instances, each collective on every rank once; the one rank 3 never called \
marked incomplete (3 of 4)" instances "$T/t.json" "$INST" "$COMPLETE"

pycheck "the ranks' spans of each instance are linked from the rank that started last" \
	linked-from-last "$T/t.json"

pycheck "each send of the ring is an arrow from the sender's group span to the receiver's" \
	send-ring "$T/t.json"

pycheck "NCCL calls carry op, count, dtype, bytes, reduction, root, communicator, rank, size, \
seq and group" call-args "$T/t.json"

pycheck "summary: algbw, busbw and the wait of every row are nccl-tests formulas on the \
recorded bytes and times" summary-bandwidth "$T/t.json" "$T/sum.txt"

grep -q "^NCCL API" "$T/sum.txt" && grep -q "ncclGroupEnd" "$T/sum.txt" &&
	grep -q "^NCCL send/receive" "$T/sum.txt" && grep -q "0 -> 1 (0x1234abcd)" "$T/sum.txt" &&
	grep -q "instances:   25, 1 incomplete" "$T/sum.txt"
ok $? "summary: the NCCL API table, the send/receive pairs, instances and the incomplete one \
counted"

"$ANALYZE" "$T/job" -f chrome -o "$T/dom.json" --group-by domain 2>"$T/err2.txt" &&
	"$PY" -B "$CHECKS" by-domain "$T/dom.json"
ok $? "--group-by domain: the spans in the GPU group, arrows kept"

if [ "${OTF2_PRINT:-no}" != no ] && [ -x "${OTF2_PRINT:-}" ]; then
	"$ANALYZE" "$T/job" -f otf2 -o "$T/otf2" 2>"$T/err3.txt" &&
		"$OTF2_PRINT" "$T/otf2/traces.otf2" >"$T/otf2.txt" 2>"$T/otf2.err" &&
		! grep -q . "$T/otf2.err" &&
		"$OTF2_PRINT" -G "$T/otf2/traces.otf2" >"$T/otf2.defs" 2>>"$T/otf2.err" &&
		grep -q '"ncclAllReduce"' "$T/otf2.defs" && grep -q 'ncclGroup' "$T/otf2.defs" &&
		[ "$(grep -c '^ENTER' "$T/otf2.txt")" -ge 83 ]
	ok $? "OTF2: the archive reads back with otf2-print, NCCL calls and collectives as regions"
else
	skip "otf2-print not found (configure looks for it)"
fi
finish
