#!/bin/sh
# MPI-IO: apps/mpi-io (C; collective, individual, nonblocking and split collective writes of
# known sizes, reads back, a read at the end of the file, a file per rank over MPI_COMM_SELF)
# and apps/mpi-io.F90 (use mpi, use mpi_f08), under Open MPI and MPICH, recorded on their
# ranks: the program's output unchanged, the recorder silent; the summary's MPI-IO table has
# the exact opens, reads, writes and bytes of every file; the Chrome trace names each call's
# file and its bytes; the OTF2 archive has an I/O handle per open and an operation per read
# or write, with the bytes done (tools/checks/mpi-io.py).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
need_mpi apps/mpi-io
plan 40


# io NAME RUN APP LANG: records APP (run by RUN on 2 ranks, its file under $T) and checks
# what the analyzer makes of it; the C program's (LANG c) Chrome trace too.
io() {
	_n=$1 _run=$2 _app=$3 _lang=$4
	$_run -np 2 "$_app" "$T/$_n.dat" >"$T/$_n.truth" 2>"$T/$_n.perr"
	ok $? "$_n: runs on 2 ranks ($(cut -c1-60 "$T/$_n.truth")...)"
	"$INSPECT" -o "$T/$_n" -- $_run -np 2 "$_app" "$T/$_n.dat" >"$T/$_n.out" 2>"$T/$_n.err" &&
		cmp -s "$T/$_n.truth" "$T/$_n.out"
	ok $? "$_n: under tprof-inspect, exit status 0 and the same output"
	check "$_n: the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/$_n.err"
	"$ANALYZE" "$T/$_n" --summary=json -f otf2 -o "$T/$_n.otf2" >"$T/$_n.sum.json" \
		2>"$T/$_n.an.err" && otf2_print "$T/$_n.otf2/traces.otf2" "$T/$_n.p"
	ok $? "$_n: tprof-analyze writes the summary and the OTF2 archive, otf2-print reads it"
	pycheck_in mpi-io "$_n: the MPI-IO table has every file's opens, reads, writes and bytes" \
		summary "$T/$_n.truth" "$T/$_n.sum.json"
	pycheck_in mpi-io "$_n: OTF2 has a handle per open, each read and write with its bytes" \
		otf2-io "$T/$_n.truth" "$T/$_n.p"
	if [ "$_lang" = c ]; then
		"$ANALYZE" "$T/$_n" -f chrome -o "$T/$_n.json" 2>"$T/$_n.c.err"
		ok $? "$_n: tprof-analyze writes the Chrome trace"
		pycheck_in mpi-io "$_n: each call names its file, reads and writes their bytes" \
			chrome "$T/$_n.truth" "$T/$_n.json"
	fi
}

each_mpi_build io io 8 6
