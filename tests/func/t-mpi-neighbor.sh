#!/bin/sh
# The neighbourhood collectives: apps/mpi-neighbor (on a periodic ring and on a star whose
# sources and destinations differ; blocking, nonblocking, v and w forms) under Open MPI and
# MPICH, on 3 ranks: output unchanged, the recorder silent, and the summary's calls and bytes
# those the program counted, each call a collective complete on its communicator
# (tools/checks/mpi-neighbor.py).
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-neighbor
plan 8

# nb NAME RUN APP: records APP (run by RUN on 3 ranks) and checks its summary.
nb() {
	_n=$1 _run=$2 _app=$3
	$_run -np 3 "$_app" >"$T/$_n.truth" 2>"$T/$_n.perr"
	ok $? "$_n: runs on 3 ranks ($(cut -c1-60 "$T/$_n.truth")...)"
	"$INSPECT" -o "$T/$_n" -- $_run -np 3 "$_app" >"$T/$_n.out" 2>"$T/$_n.err" &&
		cmp -s "$T/$_n.truth" "$T/$_n.out" && ! grep -q "^tprof\[" "$T/$_n.err"
	ok $? "$_n: under tprof-inspect, exit status 0, the same output, the recorder silent"
	"$ANALYZE" "$T/$_n" --summary=json >"$T/$_n.sum.json" 2>"$T/$_n.an.err"
	ok $? "$_n: tprof-analyze writes the summary"
	pycheck_in mpi-neighbor "$_n: every neighbourhood collective's calls, bytes, instances" \
		summary "$T/$_n.truth" "$T/$_n.sum.json"
}

nb openmpi "$MPIRUN $MPIRUN_FLAGS" "$APPS/mpi-neighbor"
if [ -n "${MPIRUN_MPICH:-}" ] && [ "$MPIRUN_MPICH" != no ] && [ -x "$APPS/mpich-neighbor" ]; then
	nb mpich "$MPIRUN_MPICH" "$APPS/mpich-neighbor"
else
	for _k in 1 2 3 4; do skip "no MPICH: apps/mpich-neighbor was not built"; done
fi
