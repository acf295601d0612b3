#!/bin/sh
# tprof-analyze's MPI outputs end to end, on the trace of a synthetic 4-rank job written by
# apps/mpi-synth (ring of MPI_Isend/MPI_Irecv + MPI_Waitall, MPI_ANY_SOURCE receives,
# collectives on MPI_COMM_WORLD and on a split communicator, one rank on a host whose clocks
# are 5 ms ahead): the Chrome trace names and orders the ranks, gives MPI calls their
# arguments, draws one flow per message from the sending call to the call that completed
# the receive, never backwards in time, lines collectives up on every member; the summary
# counts the same; a window keeps the messages that completed in it.
. "$(dirname "$0")/lib.sh"
SYNTH="$APPS/mpi-synth"
[ -x "$SYNTH" ] || skip_all "apps/mpi-synth was not built"
plan 13

truth=$("$SYNTH" "$T/job") && [ -n "$truth" ]
ok $? "the synthetic job is written ($truth)"
MSGS=$(echo "$truth" | sed -n 's/.*messages=\([0-9]*\).*/\1/p')
COLLS=$(echo "$truth" | sed -n 's/.*collectives=\([0-9]*\).*/\1/p')

"$ANALYZE" "$T/job" -f chrome -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/err.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

"$PY" -B "$CHECKS" processes-by-rank "$T/t.json"
ok $? "processes are named rank N (host, pid P), ordered by rank, the rankless one last"

"$PY" -B "$CHECKS" call-arguments "$T/t.json"
ok $? "MPI calls carry their arguments (communicator, peer, rank in it, tag, bytes, root, seq, request)"

"$PY" -B "$CHECKS" message-flows "$T/t.json" "$MSGS"
ok $? "one flow per message ($MSGS), from the sending call to the call that completed the receive"

"$PY" -B "$CHECKS" no-backward-messages "$T/t.json"
ok $? "no message arrow points backwards in time (rank 2 aligned)"

"$PY" -B "$CHECKS" collectives-on-members "$T/t.json" "$COLLS"
ok $? "every collective ($COLLS) on all members of its communicator, arrows from the last to arrive"

grep -q "^  matched:     $MSGS messages" "$T/sum.txt" && grep -q "^  unmatched:   0 sends, 0 receives" "$T/sum.txt"
ok $? "the summary counts $MSGS messages matched, none unmatched"
awk '/^MPI collectives/ {c = 1; next} c && /^$/ {c = 0} c' "$T/sum.txt" >"$T/colls.txt"
grep -Eq '^ +5 .* MPI_Bcast$' "$T/colls.txt" && grep -Eq '^ +15 .* MPI_Allreduce$' "$T/colls.txt" &&
	grep -Eq '^ +10 .* MPI_Barrier$' "$T/colls.txt"
ok $? "collectives by call: 5 MPI_Bcast, 15 MPI_Allreduce, 10 MPI_Barrier instances"
grep -Eq '^ +2 MPI_Init +\+4999800 .* yes +rank 2 \(hostB' "$T/sum.txt" &&
	grep -Eq '^MPI by rank' "$T/sum.txt" && grep -q 'imbalance (max/mean of time in MPI over 4 processes)' "$T/sum.txt"
ok $? "the summary shows rank 2's clock offset, applied, and time in MPI by rank"

"$ANALYZE" "$T/job" -v -s >/dev/null 2>"$T/verbose.txt" &&
	grep -q 'rank 2 (hostB, pid 702).*clock offset +4999800 ns against rank 0 at MPI_Init (round trip 1.5\?[0-9]* ns' "$T/verbose.txt"
ok $? "-v notes the clock offsets"

# Iteration 1 runs from 110000 to 210000 ticks: 109 to 209 us from the trace start.
"$ANALYZE" "$T/job" --start 109 --end 209 -o "$T/w.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" window-messages "$T/w.json"
ok $? "a window keeps the 7 messages whose receive completed in it"

"$ANALYZE" "$T/job" --group-by domain -o "$T/d.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" domain-flows "$T/d.json" "$MSGS"
ok $? "with --group-by domain, the flows bind to the calls in the API calls group"
finish
