#!/bin/sh
# Recording an NCCL job: apps/nccl-ranks on 4 ranks (mpirun, under tprof-inspect) with the
# stand-in NCCL, then apps/rccl-ranks with the stand-in RCCL.  What the recorder wrote is read
# back with tools/dump-records and checked against the program's own account of its calls (the
# JSON line rank 0 prints) and against the stand-in's trace of what it ran: every call with
# its op, count, datatype, bytes, root, reduction, rank, size and communicator; communicator
# ids equal across ranks, different between the world and the two halves of its split;
# collective numbers equal across ranks; sends paired with receives; one DEVICE record per
# collective on its stream, one per (group, stream) for grouped ones, each lasting at least
# what the stand-in ran and holding it in time; RCCL flagged.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nccl.sh"
need_mpi apps/nccl-ranks apps/rccl-ranks
need_nccl
plan 24

NP=4
# Device spans against the stand-in's times: the spans come from the runtime's events and
# an anchor pinned to the host clock within tens of microseconds; 1 ms covers a descheduled
# anchor on a loaded machine.  Durations are compared exactly (device time only).
TOL_NS=1000000

run_job() { # APP OUT TRACEDIR
	mkdir -p "$3"
	STANDIN_NCCL_TRACE_FILE="$3/trace.%p" \
		"$INSPECT" -o "$2" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/$1" >"$2.out" 2>"$2.err"
}

"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/nccl-ranks" >"$T/plain.out" 2>"$T/plain.err"
ok $? "nccl-ranks runs on $NP ranks without the recorder"
run_job nccl-ranks "$T/out" "$T/tr"
ok $? "and under tprof-inspect -- mpirun, with exit status 0 (its results checked)"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/out.out"
check "the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/out.err"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"

pycheck "one profile per rank, each describing the library (libnccl, its version, HIP events)" \
	library "$T/dump.json" "$T/out.out"

pycheck "every NCCL call is recorded once, with its end" every-call-once "$T/dump.json" "$T/out.out"

pycheck "collectives carry op, count, datatype, bytes, root, reduction, size and number as called" \
	collective-arguments "$T/dump.json" "$T/out.out"

pycheck "communicator ids: the world the same on every rank (as ncclGetUniqueId said), split "\
"halves apart" \
	communicator-ids "$T/dump.json" "$T/out.out"

pycheck "each call names its communicator with this rank in it, size and device" \
	call-communicators "$T/dump.json" "$T/out.out"

pycheck "the same collective has the same (communicator, number) on every rank" \
	same-numbers "$T/dump.json" "$T/out.out"

pycheck "every send is paired with the receive of the same number on its peer" \
	sends-paired "$T/dump.json" "$T/out.out"

pycheck "grouped calls carry their group: the correlation id of its ncclGroupStart" \
	grouped-calls "$T/dump.json" "$T/out.out"

pycheck "each collective outside a group: one DEVICE record on its stream, linked to its call" \
	device-records-alone "$T/dump.json" "$T/out.out"

pycheck "each group: one DEVICE record per stream, linked to its ncclGroupEnd, counting its "\
"operations" \
	device-records-groups "$T/dump.json" "$T/out.out"

pycheck "no HIP call is recorded inside an NCCL call (the library's own runtime calls)" \
	no-hip-inside "$T/dump.json" "$T/out.out"

pycheck "nothing untimed, nothing lost" nothing-lost "$T/dump.json" "$T/out.out"

pycheck "each device span lasts at least what the stand-in ran, and holds it in time" \
	device-spans "$T/dump.json" "$T/out.out" "$T/tr" "$TOL_NS"

# ---- the same job over RCCL ----------------------------------------------------------------
"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/rccl-ranks" >"$T/rplain.out" 2>"$T/rplain.err"
ok $? "rccl-ranks runs on $NP ranks without the recorder"
run_job rccl-ranks "$T/rout" "$T/rtr"
ok $? "and under tprof-inspect -- mpirun"
check "its output is unchanged" cmp -s "$T/rplain.out" "$T/rout.out"
"$DUMP" "$T/rout" >"$T/rdump.json"
ok $? "dump-records reads the profile"
pycheck "every call is flagged RCCL, the library is librccl, timed with HIP events" \
	rccl-flagged "$T/rdump.json" "$T/rout.out"
pycheck "its collectives match across ranks, each with its device span" \
	rccl-collectives "$T/rdump.json" "$T/rout.out"
finish
