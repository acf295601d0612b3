#!/bin/sh
# The analysis processes' MPI (analyze/parallel/par.c, loaded at run time from the launcher's
# library): unit/test-par alone (one process, no MPI loaded), under Open MPI's mpirun and under
# MPICH's, with 1 and 3 processes; a library that cannot be loaded is said, naming itself.
. "$(dirname "$0")/lib.sh"
PAR="$top_builddir/tests/unit/test-par"
plan 7

# run_par NAME K COMMAND...: test-par's TAP (printed by its first process) all ok.
run_par() {
	_rp_name=$1 _rp_k=$2
	shift 2
	"$@" "$PAR" "$_rp_k" >"$T/$_rp_name.out" 2>"$T/$_rp_name.err"
	_rp_rc=$?
	sed 's/^/# /' "$T/$_rp_name.out" "$T/$_rp_name.err" | grep -v '^# ok ' || true
	check "$_rp_name: $_rp_k process(es), every check passed on each" \
		sh -c '[ "$0" -eq 0 ] && grep -q "^1\.\.10$" "$1" && ! grep -q "^not ok" "$1" &&
			[ "$(grep -c "^ok" "$1")" -eq 10 ]' "$_rp_rc" "$T/$_rp_name.out"
}

run_par alone 1 env -u OMPI_COMM_WORLD_SIZE -u PMI_SIZE -u PMI_RANK -u PMIX_RANK
check "alone: no MPI library loaded" grep -q "library none" "$T/alone.out"
if [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ]; then
	# shellcheck disable=SC2086
	run_par openmpi-1 1 $MPIRUN $MPIRUN_FLAGS -np 1
	check "openmpi -np 1: the serial path, no MPI library loaded" grep -q "library none" \
		"$T/openmpi-1.out"
	# shellcheck disable=SC2086
	run_par openmpi 3 $MPIRUN $MPIRUN_FLAGS -np 3
else
	skips 3 "no mpirun (configure found none; on Debian: apt-get install openmpi-bin)"
fi
if [ -n "${MPIRUN_MPICH:-}" ] && [ "$MPIRUN_MPICH" != no ]; then
	run_par mpich 3 "$MPIRUN_MPICH" -np 3
	TPROF_MPI_LIB=libnot-an-mpi.so.9 "$MPIRUN_MPICH" -np 2 "$PAR" 2 >/dev/null 2>"$T/nolib.err"
	check "a library that cannot be loaded: said, naming it" \
		grep -q "^tprof-analyze: --parallel: cannot load the MPI library libnot-an-mpi.so.9" \
		"$T/nolib.err"
else
	skips 2 "no mpirun.mpich (configure found none; on Debian: apt-get install mpich)"
fi
finish
