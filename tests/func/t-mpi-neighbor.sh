#!/bin/sh
# The neighbourhood collectives: apps/mpi-neighbor (on a periodic ring and on a star whose
# sources and destinations differ; blocking, nonblocking, v and w forms) under Open MPI and
# MPICH, on 3 ranks: output unchanged, the recorder silent, and the summary's calls and bytes
# those the program counted, each call a collective complete on its communicator
# (tools/checks/mpi-neighbor.py).  The same for apps/mpi-neighbor.F90 (the ring from Fortran,
# MPI_Neighbor_alltoallw's datatypes sized by the topology: use mpi and use mpi_f08 under Open
# MPI, use mpi under MPICH).
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-neighbor
plan 24

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

each_mpi_build nb neighbor 4 4
