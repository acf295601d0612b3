#!/bin/sh
# Recording NCCL ranks made by fork (no MPI): apps/nccl-extras on 3 ranks — ncclBcast recorded
# once (the library's own ncclBroadcast is not), a group over two streams (one DEVICE record
# per stream, timed from the ncclGroupEnd that launches it 20 ms after its calls), nested groups (one record for the outermost, counting every operation), the
# all-to-all of NCCL and of RCCL — then the same program over CUDA streams, whose collectives
# must be timed with the CUDA runtime's events (the stand-in libcudart logs each call) and
# show no HIP call, and the stand-in's own apps/nccl-fork.  Device spans are checked against
# the stand-in's trace of what it ran.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nccl.sh"
need_nccl apps/nccl-extras apps/rccl-extras apps/nccl-cuda apps/nccl-fork
plan 26

NP=3
TOL_NS=1000000   # as in t-nccl-record.sh

run_app() { # APP OUT
	mkdir -p "$2.tr"
	STANDIN_NCCL_TRACE_FILE="$2.tr/trace.%p" STANDIN_CUDART_TRACE_FILE="$2.tr/cudart.%p" \
		"$INSPECT" -o "$2" -- "$APPS/$1" $NP >"$2.out" 2>"$2.err" &&
		"$DUMP" "$2" >"$2.json"
}

# What every rank of nccl-extras calls, in order (the parent alone made the unique id, before
# it forked: the children are process images of their own).
WANT_CALLS='ncclCommInitRank ncclBcast ncclGroupStart ncclAllReduce ncclAllReduce ncclGroupEnd
ncclGroupStart ncclGroupStart ncclSend ncclRecv ncclGroupEnd ncclAllGather ncclGroupEnd
ALLTOALL ncclAllReduce ncclCommDestroy'
# The checks every variant passes; ALLTOALL: the name of its all-to-all call.
common_checks() { # OUT ALLTOALL WHAT
	pycheck "$3: every rank makes its calls once, in order, ncclBcast without ncclBroadcast" \
		calls-once "$1.json" "$WANT_CALLS" "$2"
	pycheck "$3: ranks, communicator and numbers agree across ranks; ncclBcast in place, root 0" \
		ranks-agree "$1.json"
	pycheck "$3: groups: one DEVICE record per stream of the two-stream group, one for the "\
"nested groups" \
		group-records "$1.json"
	pycheck "$3: the two-stream group's spans start at the ncclGroupEnd that launches it, not at "\
"its calls 20 ms earlier" \
		group-starts-at-end "$1.json" "$1" "$TOL_NS"
	pycheck "$3: every collective outside a group has its DEVICE record; spans hold the stand-in's "\
"runs" \
		device-spans "$1.json" "$1" "$TOL_NS"
}

# ---- NCCL over HIP streams ----------------------------------------------------------------
"$APPS/nccl-extras" $NP >"$T/plain.out" 2>"$T/plain.err"
ok $? "nccl-extras runs on $NP forked ranks without the recorder"
run_app nccl-extras "$T/n"
ok $? "and under tprof-inspect, its results checked; dump-records reads the profile"
check "its verdict is unchanged; the recorder says nothing" sh -c \
	'[ "$(tail -n 1 "$1")" = "$(tail -n 1 "$2")" ] && ! grep -q "^tprof\[" "$3"' \
	sh "$T/plain.out" "$T/n.out" "$T/n.err"
common_checks "$T/n" ncclAlltoAll NCCL
pycheck "NCCL: timed with HIP events, no call flagged RCCL" nccl-hip-events "$T/n.json"

# ---- RCCL ---------------------------------------------------------------------------------
run_app rccl-extras "$T/r"
ok $? "rccl-extras runs under tprof-inspect"
common_checks "$T/r" ncclAllToAll RCCL
pycheck "RCCL: every call flagged, the library is librccl, timed with HIP events" \
	rccl-flagged "$T/r.json"

# ---- NCCL over CUDA streams -----------------------------------------------------------------
run_app nccl-cuda "$T/c"
ok $? "nccl-cuda (CUDA streams, the stand-in libcudart) runs under tprof-inspect"
common_checks "$T/c" ncclAlltoAll CUDA
pycheck "CUDA: timed with the CUDA runtime's events: two cudaEventRecord per DEVICE record on "\
"its stream" \
	cuda-events "$T/c.json" "$T/c"
pycheck "CUDA: no HIP call is recorded (the stand-in CUDA runtime is not HIP to the profiler)" \
	cuda-no-hip "$T/c.json"

# ---- the stand-in's fork program ------------------------------------------------------------
STANDIN_NCCL_TRACE_FILE="$T/f.tr.%p" "$INSPECT" -o "$T/f" -- "$APPS/nccl-fork" 4 >"$T/f.out" 2>"$T/f.err" &&
	"$DUMP" "$T/f" >"$T/f.json"
ok $? "nccl-fork (4 ranks by fork) runs under tprof-inspect"
pycheck "nccl-fork: each rank's all-reduces matched by communicator and number, each with its "\
"device span" \
	fork-allreduces "$T/f.json"
finish
