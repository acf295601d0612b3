#!/bin/sh
# One-sided communication: apps/mpi-rma (a window over MPI_COMM_WORLD; fence, lock, lock_all
# and PSCW epochs; puts, gets, accumulates, fetch-and-op, compare-and-swap, a request-based
# put, flushes) under Open MPI and MPICH, on 3 ranks: the program's output unchanged, the
# recorder silent; the summary's one-sided table has the exact epochs, operations and bytes;
# every transfer is an arrow from the origin's call to where it was complete at its target
# (the target's fence or MPI_Win_wait, or its call when the origin's unlock or flush
# returned), in Chrome, Perfetto and SQLite's flows; OTF2 has the RMA records
# (tools/checks/mpi-rma.py).  The same for apps/mpi-rma.F90 (fence, lock and lock_all epochs
# from Fortran: use mpi and use mpi_f08, under Open MPI and MPICH).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
need_mpi apps/mpi-rma
command -v sqlite3 >/dev/null || skip_all "no sqlite3 shell (on Debian: apt-get install sqlite3)"
plan 54


# rma NAME RUN APP: records APP (run by RUN on 3 ranks) and checks what the analyzer makes
# of it.
rma() {
	_n=$1 _run=$2 _app=$3
	$_run -np 3 "$_app" >"$T/$_n.truth" 2>"$T/$_n.perr"
	ok $? "$_n: runs on 3 ranks ($(cut -c1-70 "$T/$_n.truth")...)"
	"$INSPECT" -o "$T/$_n" -- $_run -np 3 "$_app" >"$T/$_n.out" 2>"$T/$_n.err" &&
		cmp -s "$T/$_n.truth" "$T/$_n.out"
	ok $? "$_n: under tprof-inspect, exit status 0 and the same output"
	check "$_n: the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/$_n.err"
	"$ANALYZE" "$T/$_n" --summary=json -f otf2 -o "$T/$_n.otf2" >"$T/$_n.sum.json" \
		2>"$T/$_n.an.err" && otf2_print "$T/$_n.otf2/traces.otf2" "$T/$_n.p" &&
		"$ANALYZE" "$T/$_n" -f chrome -o "$T/$_n.json" 2>>"$T/$_n.an.err"
	ok $? "$_n: tprof-analyze writes the summary, the OTF2 archive and the Chrome trace"
	pycheck_in mpi-rma "$_n: the one-sided table has every epoch, operation and byte" \
		summary "$T/$_n.truth" "$T/$_n.sum.json"
	pycheck_in mpi-rma "$_n: each transfer an arrow to where it was complete at its target" \
		chrome "$T/$_n.truth" "$T/$_n.json"
	pycheck_in mpi-rma "$_n: OTF2 has the windows, fences, locks and operations, each completed" \
		otf2-rma "$T/$_n.truth" "$T/$_n.p"
	# SQLite: the arrows in the flows table, each end in a slice
	_want=$("$PY" -c 'import json, sys
t = json.loads(open(sys.argv[1]).read().splitlines()[-1])
print(t["per_rank"]["linked"] * t["ranks"])' "$T/$_n.truth")
	"$ANALYZE" "$T/$_n" -f sqlite -o "$T/$_n.db" 2>>"$T/$_n.an.err" &&
		_got=$(sqlite3 "$T/$_n.db" "SELECT count(*) FROM flows f JOIN strings s ON s.id = f.name_id
			WHERE s.string = 'rma' AND f.from_slice_id IS NOT NULL AND f.to_slice_id IS NOT NULL") &&
		[ "$_got" = "$_want" ]
	ok $? "$_n: SQLite's flows hold the $_want arrows, each end in a slice (${_got:-none})"
	if [ -n "${PROTOC:-}" ] && [ "$PROTOC" != no ]; then
		"$ANALYZE" "$T/$_n" -f perfetto -o "$T/$_n.pftrace" 2>>"$T/$_n.an.err" &&
			"$PY" "$top_srcdir/tests/tools/pftrace.py" compare "$T/$_n.pftrace" \
				"$T/$_n.json" >"$T/$_n.pf" 2>"$T/$_n.pf.err"
		ok $? "$_n: the Perfetto trace has the same arrows and slices as the Chrome trace"
	else
		skip "no protoc: the Perfetto trace is not decoded"
	fi
}

each_mpi_build rma rma 9 9
