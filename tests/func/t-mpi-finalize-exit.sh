#!/bin/sh
# A rank that leaves early leaves under the profiler too: in apps/hang-job early-exit, rank 3
# of 4 calls MPI_Finalize and exits while the others wait for ever in an MPI_Allreduce it
# skipped.  Open MPI 4's MPI_Finalize waits for every rank unless the job runs with
# `--mca async_mpi_finalize 1`; with it, rank 3 leaves, and under tprof-inspect it must as well:
# the clock offset measurement at the start of MPI_Finalize (preload/mpi/mpi-sync.c) must not
# wait for a rank 0 that never comes.  Each job is then ended as a user would, SIGTERM to the
# launcher's process group (timeout(1)), and must leave no process behind.  An MPI whose rank 3
# does not leave even without the profiler skips the test.
. "$(dirname "$0")/lib.sh"
need_mpi apps/hang-job
[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ] ||
	skip_all "no stand-in HIP runtime (configure found no usable HIP headers)"
"$MPIRUN" --version 2>&1 | grep -q "Open MPI" ||
	skip_all "$MPIRUN is not Open MPI's mpirun: no --mca async_mpi_finalize"
LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
plan 9

# Every process of this test's jobs (the launchers, the ranks) has MARK in its environment, and
# this shell has not (nor the greps that look for it): MARK names them, whatever else runs.
MARK="TPROF_TEST_HANG_JOB=$T"
JOB_FLAGS="--mca async_mpi_finalize 1 -np 4 $APPS/hang-job early-exit"
LEAVE_S=20   # how long rank 3 may take to leave, from the last truth line (a loaded machine)

# marked: the live processes of this test's jobs, one pid a line.
marked() { grep -lsz -x "$MARK" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3; }
# live_ranks: the ranks of the jobs' live processes, in order on one line.
live_ranks() {
	for _p in $(marked); do
		{ tr '\0' '\n' <"/proc/$_p/environ"; } 2>/dev/null |
			sed -n 's/^OMPI_COMM_WORLD_RANK=//p'
	done | sort -n | tr '\n' ' ' | sed 's/ $//'
}
# within SECONDS COMMAND...: retries COMMAND every 0.2 s until it succeeds, for SECONDS at most.
within() {
	_w=$(($1 * 5))
	shift
	until "$@"; do
		[ "$_w" -gt 0 ] || return 1
		sleep 0.2
		_w=$((_w - 1))
	done
}
# Whatever happens, nothing of the jobs outlives the test.
# shellcheck disable=SC2086
cleanup() { _left=$(marked); [ -z "$_left" ] || kill -KILL $_left 2>/dev/null; }
trap 'cleanup; rm -rf "$T"' EXIT

# start NAME COMMAND...: the job in the background (stdout in $T/NAME.out, stderr in
# $T/NAME.err), under timeout(1), which puts it in a process group of its own; its pid in JOB.
start() {
	_n=$1
	shift
	env "$MARK" timeout -s TERM -k 10 300 "$@" >"$T/$_n.out" 2>"$T/$_n.err" &
	JOB=$!
}
truths() { [ "$(grep -c '"in":' "$T/$1.out")" -ge 4 ]; }
# ended: the job's timeout has exited (a child not yet waited for is a zombie).
ended() { _st=$(cut -d' ' -f3 "/proc/$JOB/stat" 2>/dev/null); [ -z "$_st" ] || [ "$_st" = Z ]; }
# started NAME: waits until every rank said where it hangs (or the job ended: then it failed).
truths_or_end() { truths "$1" || ended; }
started() { within 120 truths_or_end "$1"; truths "$1"; }
rank3_left() { [ "$(live_ranks)" = "0 1 2" ]; }
nothing_left() { [ -z "$(marked)" ]; }
# stop NAME: SIGTERM to the job's timeout, which passes it to the launcher's process group
# (and KILL 10 s later); then two results: the job ended, and left nothing behind.
stop() {
	kill -TERM "$JOB" 2>/dev/null
	within 40 ended
	ok $? "$1: SIGTERM to its process group ends the job"
	wait "$JOB" 2>/dev/null
	within 30 nothing_left
	ok $? "$1: no process of the job is left"
	nothing_left || diag "left: $(marked | tr '\n' ' ')"
	cleanup
}

# Without the profiler: rank 3 leaves, the others hang.  Else this MPI's MPI_Finalize waits for
# them, whatever the option says: nothing to test.
# shellcheck disable=SC2086
start plain "$MPIRUN" $MPIRUN_FLAGS $JOB_FLAGS
started plain
ok $? "without the profiler: every rank says where it hangs, rank 3 that it leaves"
within $LEAVE_S rank3_left
plain_left=$?
NOT_ASYNC="rank 3 does not leave even without the profiler: this MPI's MPI_Finalize waits"
if [ $plain_left -eq 0 ]; then
	ok 0 "without the profiler: rank 3 leaves, ranks 0 to 2 go on waiting"
else
	diag "live ranks: $(live_ranks)"
	skip "$NOT_ASYNC"
fi
stop "without the profiler"
if [ $plain_left -ne 0 ]; then
	skips 5 "$NOT_ASYNC"
	finish
	exit
fi

# Under tprof-inspect: the same.
# shellcheck disable=SC2086
start rec "$INSPECT" -o "$T/p" -- "$MPIRUN" $MPIRUN_FLAGS $JOB_FLAGS
started rec
ok $? "under tprof-inspect: every rank says where it hangs, rank 3 that it leaves"
within $LEAVE_S rank3_left
ok $? "under tprof-inspect: rank 3 leaves, ranks 0 to 2 go on waiting"
rank3_left || diag "live ranks: $(live_ranks)" "$(tail -n 5 "$T/rec.err")"
# A process that ended has turned its spool into its profile; the others still spool.
count() { _c=0; for _f in "$T/p"/*"$1"; do [ -e "$_f" ] && _c=$((_c + 1)); done; echo $_c; }
tpfs=$(count .tpf) spools=$(count .spool)
[ "$tpfs" -eq 4 ] && [ "$spools" -eq 3 ]
ok $? "under tprof-inspect: rank 3's profile is finished, the others' are still written"
[ "$tpfs" -eq 4 ] && [ "$spools" -eq 3 ] || diag "profile: $(cd "$T/p" 2>/dev/null && echo *)"
stop "under tprof-inspect"
finish
