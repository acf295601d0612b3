#!/bin/sh
# `mpirun -np K tprof-analyze --parallel DIR --format otf2 -o ARCHIVE`: K analysis processes
# write one OTF2 archive, each the files of its share's locations, the first the definitions,
# every other's locations with the mapping tables from its references to the archive's.
# otf2-print reads the archive without a word and finds, location by location, the events of
# the serial analyzer's archive, and the same definitions whatever their numbers: a generated
# MPI job of 12 ranks on two hosts (kernels, clock offsets), apps/mpi-comms and
# apps/mpi-pattern under Open MPI, apps/mpich-pattern under MPICH, a job of processes
# without MPI (HIP kernels and copies, steps, marks, counters, ranges across threads), for
# K = 1 to 4 under both launchers; NCCL jobs (a generated one, apps/nccl-synth's split
# communicator, group of sends and instance one rank never joined), whose device spans get
# their instance's figures wherever it was matched (only its number is the matching analysis
# process's own); one-sided windows (apps/mpi-rma under both launchers, apps/mpi-wins's on two
# communicators, which the analysis processes meet in different orders: every other's
# locations carry the mapping of their windows); MPI file I/O (apps/mpi-io: a shared file and
# a file per rank, every other's handles mapped); system profiles (CPU samples as calling
# contexts, which the analysis processes meet in different orders, thread states, host and
# thread counters: a job of two hosts with system images, apps/mpi-pattern recorded with
# tprof-inspect --sample all).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
. "$(dirname "$0")/lib-parallel.sh"
need_hip hip-multi hip-gaps roctx-ranges
need_mpich apps/mpich-pattern
plan 31

mix_job
ok $? "a job of six processes without MPI runs under tprof-inspect"
generated_jobs nccl-synth
ok $? "a generated MPI job of 12 ranks on two hosts, a generated NCCL job of 4 ranks and nccl-synth's are written"
# shellcheck disable=SC2086
mpi_jobs mpi-comms mpi-pattern mpi-rma mpi-wins &&
	"$INSPECT" -o "$T/mpi-io" -- $MPIRUN $MPIRUN_FLAGS -np 4 "$APPS/mpi-io" "$T/io.dat" >/dev/null 2>&1
ok $? "mpi-comms, mpi-pattern, mpi-rma, mpi-wins and mpi-io run on 4 ranks of Open MPI under tprof-inspect"
"$INSPECT" -o "$T/mpich" -- "$MPIRUN_MPICH" -np 3 "$APPS/mpich-pattern" >/dev/null 2>&1
ok $? "mpich-pattern runs on 3 ranks of MPICH under tprof-inspect"
system_jobs
ok $? "a job of two hosts with system images and mpi-pattern recorded with the system profile are written"

for d in mix gen nccl nccl-synth mpi-comms mpi-pattern mpich mpi-rma mpi-wins mpi-io sys sampled; do
	"$ANALYZE" "$T/$d" --format otf2 -o "$T/$d.otf2" 2>"$T/$d.log" &&
		otf2_print "$T/$d.otf2/traces.otf2" "$T/$d.s" || break
done
ok $? "the serial archives are written and read"

# said NAME.LOG: what the analyzer said of NAME, but where it wrote the archive.
said() { grep -v "^tprof-analyze: OTF2 archive written to " "$1"; }
# same NAME K LAUNCHER...: K analysis processes write NAME's archive, the serial one's, and
# say what the serial analyzer said of it.
same() {
	_sm_name=$1 _sm_k=$2
	shift 2
	rm -rf "$T/$_sm_name.$_sm_k.otf2"
	"$@" -np "$_sm_k" "$ANALYZE" --parallel "$T/$_sm_name" --format otf2 \
		-o "$T/$_sm_name.$_sm_k.otf2" >"$T/$_sm_name.$_sm_k.out" 2>"$T/$_sm_name.$_sm_k.log" &&
		otf2_print "$T/$_sm_name.$_sm_k.otf2/traces.otf2" "$T/$_sm_name.$_sm_k"
	_sm_rc=$?
	sed 's/^/# /' "$T/$_sm_name.$_sm_k.log" | head -4
	said "$T/$_sm_name.log" >"$T/said.s"
	said "$T/$_sm_name.$_sm_k.log" >"$T/said.p"
	check "$_sm_name: $_sm_k analysis processes ($(basename "$1")) write the serial archive, read without a word" \
		sh -c '[ "$1" = 0 ] && [ "$(grep -c "^tprof-analyze: OTF2 archive written to $3/traces.otf2\$" "$2")" = 1 ] &&
			cmp -s "$9" "${10}" && ! [ -s "$4" ] && "$5" -B "$6" same-archive "$7" "$8"' - "$_sm_rc" \
		"$T/$_sm_name.$_sm_k.log" "$T/$_sm_name.$_sm_k.otf2" "$T/$_sm_name.$_sm_k.out" \
		"$PY" "$CHECKS" "$T/$_sm_name.s" "$T/$_sm_name.$_sm_k" "$T/said.s" "$T/said.p"
}
OMPI="$MPIRUN $MPIRUN_FLAGS"
# shellcheck disable=SC2086
{
same mix 1 $OMPI
same mix 2 $OMPI
same mix 3 "$MPIRUN_MPICH"
same gen 2 $OMPI
same gen 3 $OMPI
same gen 4 "$MPIRUN_MPICH"
same mpi-comms 2 $OMPI
same mpi-comms 3 $OMPI
same mpi-pattern 2 $OMPI
same mpi-pattern 4 "$MPIRUN_MPICH"
same mpich 2 "$MPIRUN_MPICH"
same mpich 3 $OMPI
same nccl 2 $OMPI
same nccl 3 "$MPIRUN_MPICH"
same nccl-synth 3 $OMPI
same mpi-rma 2 $OMPI
same mpi-rma 3 "$MPIRUN_MPICH"
same mpi-wins 3 $OMPI
same mpi-io 2 $OMPI
same mpi-io 3 "$MPIRUN_MPICH"
same sys 3 $OMPI
same sys 4 "$MPIRUN_MPICH"
same sampled 2 $OMPI
same sampled 3 "$MPIRUN_MPICH"
}
check "location ids: each analysis process's own, the serial ones in one process" \
	sh -c 'cmp -s "$1.defs" "$2.defs" && ! cmp -s "$1.defs" "$3.defs"' - "$T/mix.s" "$T/mix.1" "$T/mix.2"
finish
