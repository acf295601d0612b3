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
PY_F='
ps = procs(sys.argv[1])
if len(ps) != 2: fail("%d processes" % len(ps))
def devices_intact(p):
    # 3 collectives alone (1, 5, 6), the two-stream group (2, 3), the nested groups (the
    # first send: 1)
    if len(p.devs) != 6 or p.drops: fail("pid %d: %d device records" % (p.pid, len(p.devs)))
    if sorted(x["dev"]["coll"]["seq"] for x in p.devs) != [1, 1, 2, 3, 5, 6]:
        fail("pid %d: numbers %s" % (p.pid, [x["dev"]["coll"]["seq"] for x in p.devs]))
'
fcheck() { _s=$1; shift; ncheck "$PY_F$_s" "$@"; }

TPROF_NCCL_API_FILTER=AllReduce,Group run "$T/a"
ok $? "with TPROF_NCCL_API_FILTER=AllReduce,Group the program runs, its results checked"
check "only the all-reduces and the group calls are recorded, numbered as if all were" fcheck '
for p in ps.values():
    names = collections.Counter(r["name"] for r in p.calls)
    if set(names) != {"ncclAllReduce", "ncclGroupStart", "ncclGroupEnd"} or names["ncclAllReduce"] != 3:
        fail("pid %d: %s" % (p.pid, names))
    if [r["nccl"]["seq"] for r in p.calls if r["name"] == "ncclAllReduce"] != [2, 3, 6]: fail("pid %d: numbers" % p.pid)
' "$T/a.json"
check "and every collective still has its device span" fcheck '
for p in ps.values():
    devices_intact(p)
' "$T/a.json"

TPROF_NCCL_API_FILTER_OUT=Comm,Group run "$T/b"
ok $? "with TPROF_NCCL_API_FILTER_OUT=Comm,Group the program runs"
check "no communicator or group call is recorded; grouped calls still name their group" fcheck '
for p in ps.values():
    names = set(r["name"] for r in p.calls)
    if any("Comm" in x or "Group" in x for x in names) or "ncclBcast" not in names: fail("pid %d: %s" % (p.pid, names))
    grouped = [r["nccl"] for r in p.calls if r["nccl"]["flags"] & F_GROUPED]
    if len(grouped) != 5 or any(not a["aux"] for a in grouped) or len(set(a["aux"] for a in grouped)) != 2:
        fail("pid %d: grouped %s" % (p.pid, grouped))
    comms = set(r["nccl"]["comm"] for r in p.calls)
    if len(comms) != 1 or min(comms) < 16: fail("pid %d: communicators %s" % (p.pid, comms))
' "$T/b.json"
check "and every collective still has its device span" fcheck '
for p in ps.values():
    devices_intact(p)
' "$T/b.json"
finish
