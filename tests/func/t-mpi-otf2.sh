#!/bin/sh
# The OTF2 archive of a real MPI job: apps/mpi-pattern on 4 ranks under tprof-inspect, then
# tprof-analyze --format otf2.  otf2-print reads it without a word on stderr; its MPI send
# records (MPI_SEND, MPI_ISEND) and receive records (MPI_RECV, MPI_IRECV) each number the
# messages the program reports sending, and pair up by (communicator, sender, receiver, tag,
# order) with equal sizes; every member's collective is there; every location keeps time order
# and nests Enter/Leave; the definitions hold one location group per rank, in rank order, and
# the communicators (MPI_COMM_WORLD, the two halves of the split).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
need_mpi apps/mpi-pattern
plan 8

"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/mpi-pattern" >"$T/truth.json" 2>"$T/rec.err"
ok $? "mpi-pattern runs on 4 ranks under tprof-inspect ($(cat "$T/truth.json"))"

"$ANALYZE" "$T/out" --format otf2 -o "$T/otf2" 2>"$T/an.err"
ok $? "tprof-analyze --format otf2 writes the archive"

otf2_print "$T/otf2/traces.otf2" "$T/p"
ok $? "otf2-print reads it, events and definitions, and says nothing on stderr"

pycheck "MPI send and receive records each number the program's messages, and pair up" \
	messages-pair-up "$T/p" "$T/truth.json"
pycheck "every member's collectives: world 4 x world count, split 4 x split count" \
	collectives "$T/p" "$T/truth.json"
pycheck_in lib-otf2 "every location keeps time order and nests Enter/Leave" nested-in-order "$T/p"
pycheck "one location group per rank, in rank order, and the communicators defined" \
	groups-and-communicators "$T/p"

# Tools that key on location names (the OTF2 Python reader's users do) must not find one
# name for the threads of several ranks.
pycheck "every location has a name of its own, its rank first (rank 2: mpi-pattern (tid N))" \
	location-names "$T/p"
finish
