#!/bin/sh
# TPROF_NCCL_API_FILTER chooses which NCCL calls are recorded (substrings, comma-separated);
# _FILTER_OUT removes some.  Communicators, the numbering of operations, groups and the device
# spans of collectives are recorded whatever the filters say.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nccl.sh"
need_nccl apps/nccl-extras
plan 6

run() { # OUT
	"$INSPECT" -o "$1" -- "$APPS/nccl-extras" 2 >"$1.out" 2>"$1.err" && "$DUMP" "$1" >"$1.json"
}

TPROF_NCCL_API_FILTER=AllReduce,Group run "$T/a"
ok $? "with TPROF_NCCL_API_FILTER=AllReduce,Group the program runs, its results checked"
pycheck "only the all-reduces and the group calls are recorded, numbered as if all were" \
	allreduce-and-groups "$T/a.json"
pycheck "and every collective still has its device span" devices-intact "$T/a.json"

TPROF_NCCL_API_FILTER_OUT=Comm,Group run "$T/b"
ok $? "with TPROF_NCCL_API_FILTER_OUT=Comm,Group the program runs"
pycheck "no communicator or group call is recorded; grouped calls still name their group" \
	no-comm-or-group "$T/b.json"
pycheck "and every collective still has its device span" devices-intact "$T/b.json"
finish
