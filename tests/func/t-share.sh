#!/bin/sh
# The parallel analyzer's loading (analyze/read/share.c): unit/test-share lists every process
# of a profile as the whole job sees it (its number, rank, span on the time axis, clock
# correction) after 1, 2, 3 or 4 analysis processes each loaded their share; the listing is
# the same whatever their number, under Open MPI's mpirun and MPICH's.  The profiles: a
# generated job of 40 ranks on 5 hosts whose clock offsets were measured against rank 0 (read
# by another analysis process), mpi-synth's (a rank on a host 5 ms ahead, a process without a
# rank) and a recorded run of apps/mpi-comms on 4 ranks (communicators made every way: each
# analysis process has them all, as every member described them).
. "$(dirname "$0")/lib.sh"
SHARE="$top_builddir/tests/unit/test-share"
GEN="$top_builddir/tests/tools/gen-profile"
SYNTH="$top_builddir/tests/apps/mpi-synth"
plan 14

# shellcheck disable=SC2086
"$GEN" -r 40 -s 4 -k "$T/gen" >/dev/null && "$SYNTH" "$T/synth" >/dev/null &&
	"$INSPECT" -o "$T/comms" -- $MPIRUN $MPIRUN_FLAGS -np 4 "$APPS/mpi-comms" >/dev/null 2>&1
ok $? "profiles written: 40 generated ranks, mpi-synth's job, mpi-comms on 4 ranks"
for p in gen synth comms; do
	env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u PMI_RANK -u PMIX_RANK "$SHARE" "$T/$p" \
		>"$T/$p.1" 2>"$T/$p.1.err"
	check "$p: loaded by one process" test -s "$T/$p.1"
done
check "gen: ranks on other hosts corrected by the offsets measured against rank 0" \
	grep -q "rank     8 pid  10008 node001 .* verdict 1 corrected 1 by -40" "$T/gen.1"
check "comms: an inter-communicator of two groups of two, its four members recorded" \
	grep -q "^comm 0x[0-9a-f]* self 0 kind 4 size 2+2 parent 0 name '' recorded 4 members" "$T/comms.1"
# same NAME K COMMAND...: the listing of K analysis processes is the one of one.
same() {
	_sm_name=$1 _sm_k=$2
	shift 2
	"$@" -np "$_sm_k" "$SHARE" "$T/$_sm_name" >"$T/$_sm_name.$_sm_k" 2>"$T/$_sm_name.$_sm_k.err"
	diff "$T/$_sm_name.1" "$T/$_sm_name.$_sm_k" | head -5 | sed 's/^/# /'
	check "$_sm_name: $_sm_k analysis processes ($(basename "$1")) list it as one does" \
		cmp -s "$T/$_sm_name.1" "$T/$_sm_name.$_sm_k"
}
if [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ]; then
	# shellcheck disable=SC2086
	same gen 3 $MPIRUN $MPIRUN_FLAGS
	# shellcheck disable=SC2086
	same synth 2 $MPIRUN $MPIRUN_FLAGS
	# shellcheck disable=SC2086
	same synth 4 $MPIRUN $MPIRUN_FLAGS
	# shellcheck disable=SC2086
	same comms 4 $MPIRUN $MPIRUN_FLAGS
else
	skips 4 "no mpirun (configure found none; on Debian: apt-get install openmpi-bin)"
fi
if [ -n "${MPIRUN_MPICH:-}" ] && [ "$MPIRUN_MPICH" != no ]; then
	same gen 2 "$MPIRUN_MPICH"
	same gen 4 "$MPIRUN_MPICH"
	same synth 3 "$MPIRUN_MPICH"
	same comms 2 "$MPIRUN_MPICH"
else
	skips 4 "no mpirun.mpich (configure found none; on Debian: apt-get install mpich)"
fi
finish
