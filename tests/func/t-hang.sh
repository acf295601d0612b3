#!/bin/sh
# Hung jobs explain themselves: apps/hang-job, 4 MPI ranks over the stand-in HIP and NCCL
# runtimes, hangs on purpose in one known way per run (a rank that skips an NCCL all-reduce
# and waits in MPI_Barrier, a rank stuck in a device sync on a kernel that never ends, two
# ranks receiving from each other (also with 3,000 sends and receives posted without their
# other end), two sending to each other (MPI_Ssend), an NCCL all-reduce of mismatched sizes, a rank that left
# the job early, a rank that never posts a nonblocking all-reduce the others wait for in
# MPI_Wait), printing the call each rank is about to hang in.  Each is recorded with
# tprof-inspect --hang-report --hang-action kill: while it hangs, tprof-analyze --live --once
# must show every rank in the call it said; the report must be written (to the directory and
# stderr) and the job ended; the killed job's profile read afterwards must name the right
# rank, call, collective and peer first, and say what the report said.  The same for ranks
# forked without MPI (apps/nccl-fork).  A job that is merely slow gets no report and no false
# finding.
. "$(dirname "$0")/lib.sh"
[ -x "$APPS/hang-job" ] ||
	skip_all "apps/hang-job was not built (it needs mpicc, mpirun and the stand-in NCCL)"
need_mpi apps/hang-job
[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnccl.so.2" ] ||
	skip_all "no stand-in NCCL or HIP runtime (configure found no usable HIP headers)"
LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# The hangs last until the job is killed; ranks waiting in MPI give the CPU away.
STANDIN_NCCL_TIMEOUT_S=3600
STANDIN_HIP_KERNEL_US="never_ends:3600000000,step_kernel:2000,default:10"
OMPI_MCA_mpi_yield_when_idle=1
export LD_LIBRARY_PATH STANDIN_NCCL_TIMEOUT_S STANDIN_HIP_KERNEL_US OMPI_MCA_mpi_yield_when_idle
# No process gets on for this long: a hang (longer than a loaded machine stalls a start).
HANG_S=6
plan 60

# truth_lines FILE: the truth lines the ranks printed so far.
truth_lines() { _n=$(grep -c '^{"rank"' "$1" 2>/dev/null); echo "${_n:-0}"; }

# hang SCENARIO [MPIRUN OPTIONS]: records it until the hang report ends it; meanwhile, once
# every rank has said where it hangs, one live view as JSON.
hang() {
	_s=$1
	shift
	# shellcheck disable=SC2086
	timeout -s TERM -k 10 180 "$INSPECT" --hang-report $HANG_S --hang-action kill \
		-o "$T/p-$_s" -- "$MPIRUN" $MPIRUN_FLAGS "$@" -np 4 "$APPS/hang-job" "$_s" \
		>"$T/out-$_s" 2>"$T/err-$_s" &
	_pid=$!
	_i=0
	while [ "$(truth_lines "$T/out-$_s")" -lt 4 ] && [ $_i -lt 600 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	# A rank that leaves is gone once its spool is (MPI_Finalize may hold it a second:
	# its clock measurement waits that long for rank 0).
	if grep -q '"in":"exit"' "$T/out-$_s"; then
		_i=0
		while [ "$(ls "$T/p-$_s" | grep -c '\.spool$')" -ge 4 ] && [ $_i -lt 300 ]; do
			sleep 0.1
			_i=$((_i + 1))
		done
	fi
	sleep 1
	"$ANALYZE" "$T/p-$_s" --live --once --summary-format json >"$T/live-$_s.json" \
		2>"$T/lerr-$_s"
	_lrc=$?
	wait $_pid
	_rc=$?
	[ $_lrc -eq 0 ] && [ "$(truth_lines "$T/out-$_s")" -eq 4 ]
	ok $? "$_s: every rank said where it hangs, and the live view was read while it hung"
	pycheck "$_s: --live shows each rank in the call it said it hangs in" calls \
		"$T/out-$_s" "$T/live-$_s.json"
	[ $_rc -ne 124 ] && [ $_rc -ne 137 ] && [ -s "$T/p-$_s/hang-report.txt" ] &&
		grep -q "no process of the job has got on for $HANG_S s: hang report in .*hang-report.txt" \
			"$T/err-$_s" && grep -q "^Findings" "$T/err-$_s"
	ok $? "$_s: the hang report written to the directory and to stderr, then the job ended"
	[ $? -eq 0 ] || diag "exit $_rc" "$(tail -n 5 "$T/err-$_s")"
	"$ANALYZE" "$T/p-$_s" --live --once --summary-format json >"$T/dead-$_s.json" \
		2>"$T/derr-$_s" &&
		"$ANALYZE" "$T/p-$_s" --live --once >"$T/dead-$_s.txt" 2>>"$T/derr-$_s"
	ok $? "$_s: the killed job's profile read afterwards"
	pycheck "$_s: it names the right rank, call, collective and peer first" finding "$_s" \
		"$T/out-$_s" "$T/dead-$_s.json"
	pycheck "$_s: it says what the report written while it hung said" same \
		"$T/p-$_s/hang-report.txt" "$T/dead-$_s.txt"
}

hang nccl-skip
hang device-stuck
hang deadlock
hang send-deadlock
hang posted-deadlock
hang mismatch
# Open MPI 4 holds a rank in MPI_Finalize until every rank gets there; asynchronous, it leaves.
hang early-exit --mca async_mpi_finalize 1
hang icoll-skip

# Nothing of the job is left.
sleep 1
! pgrep -f "$APPS/hang-job" >/dev/null
ok $? "no process of the hung jobs is left"

# Processes that are not MPI ranks: nccl-fork's ranks are its first rank's children, all in an
# NCCL all-reduce of mismatched sizes.  --hang-action kill stops them all before it ends them:
# no rank sees another end (which the stand-in answers by failing the collective, as NCCL's
# error handling does) and moves on, so the profile keeps the hang the report described; and
# no child is left behind.
STANDIN_NCCL_MISMATCH=wait timeout -s TERM -k 10 180 "$INSPECT" --hang-report $HANG_S \
	--hang-action kill -o "$T/p-fork" -- "$APPS/nccl-fork" 4 mismatch >"$T/out-fork" \
	2>"$T/err-fork"
_rc=$?
sleep 1
# (nccl-fork, handling no SIGTERM, is ended by SIGKILL: 137 is its status, not timeout's)
[ $_rc -ne 124 ] && [ -s "$T/p-fork/hang-report.txt" ] &&
	[ "$(truth_lines "$T/out-fork")" -eq 4 ] && ! pgrep -f "$APPS/nccl-fork" >/dev/null
ok $? "fork: a report, then the job ended, no rank left behind"
[ $? -eq 0 ] || diag "exit $_rc" "$(tail -n 5 "$T/err-fork")"
! grep -E "failed|exited|want" "$T/err-fork"
ok $? "fork: no rank went on after the report (no failed collective, no wrong result)"
"$ANALYZE" "$T/p-fork" --live --once --summary-format json >"$T/dead-fork.json" \
	2>"$T/derr-fork" &&
	"$ANALYZE" "$T/p-fork" --live --once >"$T/dead-fork.txt" 2>>"$T/derr-fork"
ok $? "fork: the killed job's profile read afterwards"
pycheck "fork: every rank still where it hung" calls_unranked "$T/out-fork" "$T/dead-fork.json"
pycheck "fork: it says what the report written while it hung said" same \
	"$T/p-fork/hang-report.txt" "$T/dead-fork.txt"

# A job that is only slow: rank 2 sleeps 300 ms before every all-reduce.  No report; a live
# view says nothing false.
"$INSPECT" --hang-report $HANG_S -o "$T/p-slow" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 \
	"$APPS/hang-job" slow >"$T/out-slow" 2>"$T/err-slow" &
_pid=$!
wait_file "$T/p-slow" 60 && sleep 3 &&
	"$ANALYZE" "$T/p-slow" --live --once --summary-format json >"$T/live-slow.json" 2>"$T/lerr"
_lrc=$?
wait $_pid
_rc=$?
[ $_rc -eq 0 ] && [ ! -e "$T/p-slow/hang-report.txt" ] && ! grep -q "got on" "$T/err-slow"
ok $? "slow: the job ends well, with no hang report"
[ $_lrc -eq 0 ]
ok $? "slow: a live view read while it ran"
pycheck "slow: no deadlock, mismatch or rank gone; every wait short" quiet "$T/live-slow.json"

# The options.
"$INSPECT" --hang-action kill -o "$T/x" -- true >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--hang-action .* give --hang-report S too" "$T/err"
ok $? "--hang-action without --hang-report: a usage error"
"$INSPECT" --hang-report 0 -o "$T/x" -- true >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "invalid value '0' for --hang-report" "$T/err"
ok $? "--hang-report 0: a usage error naming it"
"$ANALYZE" "$T/p-slow" --once >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--once is for --live" "$T/err"
ok $? "--once without --live: a usage error"
