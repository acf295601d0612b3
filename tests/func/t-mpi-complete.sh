#!/bin/sh
# A call that completes requests writes their MPIREQ records after its CALL and only then
# its end: were the buffer handed to the flusher in between (the MPIREQ not fitting in it),
# the chunk would keep the call unfinished, as if it had never returned (seen in hpcc: an
# MPI_Test "unfinished" for 470 ms).  The recorder makes room for a call and its MPIREQ
# records in one buffer before the call begins.  Checked with tiny buffers and
# TPROF_TEST_SLOT_PAUSE_US, which makes a thread wait after handing a buffer over, so that
# the flusher always gets there first: apps/mpi-polls completions N completes 2N requests
# with MPI_Waitall and MPI_Testall, and every call must have its end.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-polls
plan 3
# The ranks spin rather than yield: yielding polls crawl on a loaded machine (t-mpi-polls.sh).
OMPI_MCA_mpi_yield_when_idle=0

APP="$top_builddir/tests/apps/mpi-polls"
TPROF_BUFFER_KB=16 TPROF_TEST_SLOT_PAUSE_US=2000 "$INSPECT" -o "$T/out" -- \
	"$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" completions 3000 >"$T/truth.json" 2>"$T/rec.err"
ok $? "mpi-polls completions 3000 runs with 16 KB buffers"

"$DUMP" "$T/out" >"$T/rec.json" && "$PY" -B "$CHECKS" call-ends "$T/rec.json"
ok $? "every call has its end and its completions (6000), though 16 KB buffers changed hands all along"

"$ANALYZE" "$T/out" -s >"$T/sum.txt" 2>"$T/an.err" && ! grep -q "unfinished" "$T/sum.txt"
ok $? "the summary counts no unfinished call"
