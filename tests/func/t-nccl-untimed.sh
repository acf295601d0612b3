#!/bin/sh
# NCCL calls whose GPU runtime the recorder cannot reach (a library with its runtime linked in
# statically: apps/libncclhost.so loads neither HIP nor CUDA) are recorded all the same,
# flagged untimed, with no device span, and counted in one DROP record (reason 4, device
# operations left untimed): one per operation outside a group, one per stream of a group.
. "$(dirname "$0")/lib.sh"
[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
[ -x "$APPS/nccl-untimed" ] || skip_all "apps/nccl-untimed was not built"
. "$(dirname "$0")/lib-nccl.sh"
plan 5

"$APPS/nccl-untimed" >"$T/plain.out" 2>&1
ok $? "nccl-untimed runs without the recorder"
"$INSPECT" -o "$T/out" -- "$APPS/nccl-untimed" >"$T/out.out" 2>"$T/out.err"
ok $? "and under tprof-inspect"
check "its output is unchanged; the recorder says nothing" sh -c \
	'cmp -s "$1" "$2" && ! grep -q "^tprof\[" "$3"' sh "$T/plain.out" "$T/out.out" "$T/out.err"
"$DUMP" "$T/out" >"$T/dump.json" 2>"$T/dump.err"
pycheck "calls recorded and numbered, the all-reduces flagged untimed, no device span, no events" \
	untimed-calls "$T/dump.json"
pycheck "one DROP record counts the four operations left untimed" one-drop "$T/dump.json"
finish
