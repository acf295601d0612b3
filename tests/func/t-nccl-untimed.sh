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
check "calls recorded and numbered, the all-reduces flagged untimed, no device span, no events" ncheck '
p = list(procs(sys.argv[1]).values())[0]
ar = [r["nccl"] for r in p.calls if r["name"] == "ncclAllReduce"]
if [a["seq"] for a in ar] != [1, 2, 3, 4, 5] or any(not a["flags"] & F_UNTIMED for a in ar): fail("%s" % ar)
if any(r["nccl"]["flags"] & F_UNTIMED for r in p.calls if r["name"] != "ncclAllReduce"): fail("flags")
if p.devs or p.props.get("nccl_events") != "none" or not p.props.get("nccl_library", "").endswith("libncclhost.so"):
    fail("%s %s" % (p.devs, p.props))
' "$T/dump.json"
check "one DROP record counts the four operations left untimed" ncheck '
recs = [json.loads(l) for l in open(sys.argv[1])]
d = [(r["flags"], r["t1"]) for r in recs if r["kind"] == "drop"]
if d != [(4, 4)]: fail("drops %s" % d)
' "$T/dump.json"
finish
