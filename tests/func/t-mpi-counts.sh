#!/bin/sh
# Every MPI call recorded, counted independently: an interposer (tools/mpi-count-gen.py, built
# here from the symbols of the MPI libraries the programs load) counts each process's calls to
# MPI's C functions and Fortran bindings while tprof records them; per function, tprof's
# summary must show as many calls.  On apps/mpi-pattern (C) and apps/mpi-pattern.F90 under
# each Fortran binding (mpif.h, use mpi, use mpi_f08), 4 ranks.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
need_mpifc
command -v nm >/dev/null || skip_all "no nm (binutils)"
plan 10

LIBS=$(ldd "$APPS/mpi-pattern-f08" | awk '$1 ~ /^libmpi/ && $3 ~ /^\// {print $3}')
"$PY" -B "$top_srcdir/tests/tools/mpi-count-gen.py" $LIBS >"$T/mpi-count.c" &&
	"$MPICC" -O1 -shared -fPIC -o "$T/mpi-count.so" "$T/mpi-count.c" -ldl
ok $? "the counting interposer builds from $(echo "$LIBS" | wc -w) MPI libraries"
check "it counts the C functions and both Fortran spellings" \
	sh -c 'grep -q "\"MPI_Send\"" "$1" && grep -q "\"mpi_send_\"" "$1" &&
		grep -q "\"mpi_send_f08_\"" "$1"' sh "$T/mpi-count.c"

for p in mpi-pattern mpi-pattern-mpifh mpi-pattern-usempi mpi-pattern-f08; do
	mkdir -p "$T/count-$p"
	# The recorder through the environment, the interposer after it: preloaded into
	# tprof-inspect, the interposer would come before the ASan runtime of a sanitizer build.
	TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/out-$p" LD_PRELOAD="$PRELOAD_ENV:$T/mpi-count.so" \
		MPI_COUNT_DIR="$T/count-$p" "$MPIRUN" $MPIRUN_FLAGS -np 4 -x LD_PRELOAD \
		-x TPROF_ENABLE -x TPROF_OUTPUT_DIR -x MPI_COUNT_DIR "$APPS/$p" >"$T/$p.out" \
		2>"$T/$p.err" &&
		"$ANALYZE" "$T/out-$p" --summary=json >"$T/sum-$p.json" 2>"$T/an-$p.err"
	ok $? "$p: recorded on 4 ranks beside the interposer, and summarized"
	pycheck "$p: every function called is recorded as often as the interposer counted" \
		same-counts "$T/count-$p" "$T/sum-$p.json"
done
finish
