#!/bin/sh
# The stand-in NCCL/RCCL on its own, without the profiler.  Its exports (sonames, every
# nccl* weak with a strong pncclX alias, each library's own spelling of all-to-all); test-nccl
# and test-rccl with ranks as forked processes: every collective, datatype and reduction
# checked against values computed on the host, groups (nothing of one starts before its
# outermost ncclGroupEnd, in the trace file), asynchrony (a call returns before its
# peers have called), argument errors, a peer that never calls (the stream is released with
# ncclSystemError after STANDIN_NCCL_TIMEOUT_S), a peer that exits or aborts
# (ncclRemoteError), split, non-blocking initialisation, ncclCommInitAll, a lone rank timing
# out, nothing left in /dev/shm; runtime events around collectives; apps/nccl-fork.  Under
# mpirun (when there is MPI): 4 ranks of apps/nccl-ranks and apps/rccl-ranks get correct
# results, and the trace file (STANDIN_NCCL_TRACE_FILE) has one line per operation per rank,
# the same numbers on every rank, one ready time per collective (the latest start), and ends
# no earlier than latency + bytes / bandwidth after it; test-nccl-mpi runs the whole matrix
# on 4 MPI ranks.
. "$top_srcdir/tests/func/lib.sh"
[ "${STANDIN_HIP_HEADERS:-no}" = yes ] ||
	skip_all "HIP headers not found (Debian: libamdhip64-dev): no stand-in HIP, no stand-in NCCL"
B="$top_builddir/tests"
LIBS="$STANDIN_LIBDIR"
for f in "$LIBS/libnccl.so.2" "$LIBS/librccl.so.1" "$B/stand-ins/tests/test-nccl" \
	"$B/stand-ins/tests/test-rccl" "$B/apps/nccl-fork"; do
	[ -e "$f" ] || skip_all "$f was not built"
done
LD_LIBRARY_PATH="$LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
STANDIN_NCCL_TIMEOUT_S=60
export LD_LIBRARY_PATH STANDIN_NCCL_TIMEOUT_S
unset STANDIN_NCCL_TRACE_FILE STANDIN_NCCL_GBPS STANDIN_NCCL_LATENCY_US STANDIN_NCCL_CHUNK_BYTES
# Ranks waiting in MPI yield the CPU instead of spinning: more ranks than cores here.
OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_mpi_yield_when_idle
plan 37

# ---- exports
for lib in libnccl.so.2 librccl.so.1; do
	soname=$(readelf -d "$LIBS/$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
	check "$lib has the soname $lib" test "$soname" = "$lib"
done
nm -D --defined-only "$LIBS/libnccl.so.2" | awk '{ print $2, $3 }' | sort -k2 >"$T/nccl.syms"
nm -D --defined-only "$LIBS/librccl.so.1" | awk '{ print $2, $3 }' | sort -k2 >"$T/rccl.syms"
pycheck_in standin-nccl \
	"each library exports its API, ncclX weak and pncclX strong, and nothing else" exports \
	"$T/nccl.syms" "$T/rccl.syms"

# ---- test-nccl / test-rccl: run SCENARIO [ENV...] with ranks as processes (or threads)
# (built with the sanitizers: with leak checking, which lib.sh turns off for the recorder)
LEAKS=
[ "${SANITIZERS:-no}" = yes ] && LEAKS="ASAN_OPTIONS=detect_leaks=1:abort_on_error=0"

scenario() {
	_prog=$1 _mode=$2 _n=$3 _sc=$4
	shift 4
	env $LEAKS "$@" "$B/stand-ins/tests/$_prog" "$_mode" "$_n" "$_sc" >"$T/out" 2>"$T/err"
	_rc=$?
	if [ $_rc -ne 0 ]; then
		sed 's/^/# /' "$T/err" | head -30
		cat "$T/out" | sed 's/^/# /'
	fi
	return $_rc
}
check "test-nccl: every collective, datatype and reduction on 4 processes (staging cut in 4 KiB steps)" \
	scenario test-nccl fork 4 matrix STANDIN_NCCL_CHUNK_BYTES=4096
diag "$(cat "$T/out")"
check "test-rccl: the same, and ncclAllToAllv, with librccl.so.1 on 3 processes" \
	scenario test-rccl fork 3 matrix STANDIN_NCCL_CHUNK_BYTES=4096
check "test-nccl: ranks as threads of one process, each on its own device" \
	scenario test-nccl threads 4 matrix STANDIN_NCCL_CHUNK_BYTES=65536 STANDIN_HIP_DEVICES=4
check "groups: nested, collectives and send/recv together, two communicators" \
	scenario test-nccl fork 4 group STANDIN_NCCL_TRACE_FILE="$T/group.%p"
# NCCL launches a group's work at its outermost ncclGroupEnd: each rank waits 20 ms before
# calling it, and none of its operations may start before.
cat "$T"/group.* >"$T/grouptrace" 2>/dev/null
pycheck_in standin-nccl \
	"groups: no operation starts before the outermost ncclGroupEnd that launches it" group-launch \
	"$T/out" "$T/grouptrace"
check "asynchrony: ncclAllReduce returns before its peers call it; the stream is still busy" \
	scenario test-nccl fork 4 async
check "argument errors, errors in groups, a mismatched collective, a destroyed communicator" \
	scenario test-nccl fork 4 errors
grep -q "collective #2 is allreduce(count 5" "$T/err"
ok $? "a mismatched collective is reported on stderr"
check "a peer that never calls: ncclSystemError after STANDIN_NCCL_TIMEOUT_S, not a hang" \
	scenario test-nccl fork 2 timeout STANDIN_NCCL_TIMEOUT_S=1
grep -q "timed out after 1 s waiting for rank 1" "$T/err"
ok $? "the timeout is reported on stderr: $(head -1 "$T/err")"
check "a peer that exited: ncclRemoteError" scenario test-nccl fork 2 peer-exit
check "a peer that aborted: ncclRemoteError" scenario test-nccl fork 2 abort
check "ncclCommSplit: colors, reversed keys, NCCL_SPLIT_NOCOLOR" scenario test-nccl fork 4 split
check "non-blocking initialisation: ncclInProgress, then ncclSuccess" \
	scenario test-nccl fork 3 nonblocking
check "ncclCommInitAll and ncclCommInitRank in a group, from one thread" \
	scenario test-nccl fork 1 initall STANDIN_HIP_DEVICES=4
check "a rank alone times out in ncclCommInitRank with ncclSystemError" \
	scenario test-nccl fork 1 init-timeout STANDIN_NCCL_TIMEOUT_S=1
# What a profiler sees: runtime events recorded around each all-reduce on its stream measure
# at least what the stand-in says the operation took (the event interval also holds the
# stream's own delay in starting it) and at least the model.
STANDIN_NCCL_TRACE_FILE="$T/ev.%p" STANDIN_NCCL_GBPS=5 STANDIN_NCCL_LATENCY_US=300 \
	"$B/stand-ins/tests/test-nccl" fork 4 events >"$T/events" 2>"$T/err"
ok $? "events: six all-reduces timed with runtime events on 4 processes"
cat "$T"/ev.* >"$T/evtrace" 2>/dev/null
pycheck_in standin-nccl \
	"events around each all-reduce span at least its traced duration and its model" event-times \
	"$T/events" "$T/evtrace"
"$B/apps/nccl-fork" 4 >"$T/out" 2>"$T/err"
ok $? "apps/nccl-fork: 4 forked ranks all-reduce correctly $(cat "$T/err")"

# ---- MPI
if [ -z "${MPIRUN:-}" ] || [ "$MPIRUN" = no ] || [ ! -x "$B/apps/nccl-ranks" ] ||
	[ ! -x "$B/apps/rccl-ranks" ] || [ ! -x "$B/stand-ins/tests/test-nccl-mpi" ]; then
	for i in $(seq 15); do skip "no mpirun, or the MPI test programs were not built"; done
	finish
	exit
fi
MPIRUN_FLAGS="--allow-run-as-root --oversubscribe"
GBPS=2 LAT=200
# shellcheck disable=SC2086
STANDIN_NCCL_TRACE_FILE="$T/trace.%p" STANDIN_NCCL_GBPS=$GBPS STANDIN_NCCL_LATENCY_US=$LAT \
	"$MPIRUN" $MPIRUN_FLAGS -np 4 "$B/apps/nccl-ranks" >"$T/truth" 2>"$T/err"
rc=$?
ok $rc "apps/nccl-ranks on 4 MPI ranks: every result correct (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$T/err" | head -20
cat "$T"/trace.* >"$T/trace" 2>/dev/null
check "4 trace files, one per rank" test "$(ls "$T"/trace.* 2>/dev/null | wc -l)" -eq 4

# The checks of the trace against the truth the program printed.
# trace_check DESCRIPTION CHECK: one result, from CHECK of standin-nccl.py on the truth, the
# trace, the bandwidth and the latency.
trace_check() { pycheck_in standin-nccl "$1" "$2" "$T/truth" "$T/trace" $GBPS $LAT; }
trace_check "one trace line per operation per rank, all ok, on 3 communicators" trace-lines
trace_check \
	"every collective is found on all of its ranks with the same number, op, size and ready time" \
	collectives-agree
trace_check "the trace has the program's collectives in order, bytes = the nccl-tests size" \
	program-order
trace_check "every operation ends no earlier than latency + bytes / bandwidth after it was ready" \
	model-durations
trace_check "every send meets its receive: same number, bytes and ready time" sends-meet
pycheck_in standin-nccl \
	"the truth line: 4 ranks, the documented sequence on both communicators, NCCL 2.28.3" \
	nccl-truth "$T/truth"

# shellcheck disable=SC2086
"$MPIRUN" $MPIRUN_FLAGS -np 4 "$B/apps/rccl-ranks" >"$T/truth" 2>"$T/err"
rc=$?
ok $rc "apps/rccl-ranks (librccl.so.1) on 4 MPI ranks: every result correct (exit $rc)"
pycheck_in standin-nccl "apps/rccl-ranks sees RCCL 2.21.5" rccl-version "$T/truth"
ldd "$B/apps/rccl-ranks" | grep -q "librccl.so.1 => $LIBS/librccl.so.1"
ok $? "apps/rccl-ranks loads librccl.so.1 and not libnccl"
! ldd "$B/apps/rccl-ranks" | grep -q libnccl
ok $? "... and no libnccl"
# shellcheck disable=SC2086
STANDIN_NCCL_CHUNK_BYTES=4096 "$MPIRUN" $MPIRUN_FLAGS -np 4 \
	"$B/stand-ins/tests/test-nccl-mpi" mpi 4 matrix >"$T/out" 2>"$T/err"
rc=$?
ok $rc "test-nccl-mpi: every collective, datatype and reduction on 4 MPI ranks (exit $rc)"
[ $rc -eq 0 ] || sed 's/^/# /' "$T/err" | head -20
# shellcheck disable=SC2086
"$MPIRUN" $MPIRUN_FLAGS -np 2 "$B/stand-ins/tests/test-nccl-mpi" mpi 2 async >"$T/out" 2>"$T/err"
ok $? "test-nccl-mpi: asynchrony between MPI ranks"
# shellcheck disable=SC2086
"$MPIRUN" $MPIRUN_FLAGS -np 4 "$B/stand-ins/tests/test-nccl-mpi" mpi 4 group >"$T/out" 2>"$T/err"
ok $? "test-nccl-mpi: groups between MPI ranks"
finish
