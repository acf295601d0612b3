#!/bin/sh
# An MPI program that reaches MPI late, through a library: mpi4py, run by Debian's own
# /usr/bin/python3 (which loads libmpi as a dependency of an extension module, privately),
# under tprof-inspect -- mpirun -np 2.  Both ranks' MPI calls are recorded.
. "$(dirname "$0")/lib.sh"
need_mpi
SYS_PY=${SYSTEM_PYTHON3:-/usr/bin/python3}
[ -x "$SYS_PY" ] || skip_all "no $SYS_PY (Debian's own python3)"
"$SYS_PY" -c 'import mpi4py' 2>/dev/null ||
	skip_all "$SYS_PY lacks mpi4py (on Debian: apt-get install python3-mpi4py)"
plan 6

SCRIPT="$top_srcdir/tests/apps/mpi4py-app.py"
"$MPIRUN" $MPIRUN_FLAGS -np 2 "$SYS_PY" "$SCRIPT" >"$T/plain.out" 2>"$T/plain.err"
ok $? "the mpi4py program runs on 2 ranks without the recorder"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$SYS_PY" "$SCRIPT" >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect -- mpirun"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/rec.out"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"
check "both ranks' MPI calls are recorded, with peers, tags, bytes and communicators" py '
import collections, json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
calls = collections.defaultdict(list)
for r in recs:
    if r["kind"] == "call" and r["flags"] == 2:
        calls[r["rank"]].append(r)
if sorted(calls) != [0, 1]: sys.exit("ranks %s" % sorted(calls))
for k in (0, 1):
    names = [c["name"] for c in calls[k]]
    for want in ("MPI_Init_thread", "MPI_Send", "MPI_Recv", "MPI_Bcast", "MPI_Allreduce", "MPI_Finalize"):
        if want not in names: sys.exit("rank %d lacks %s: %s" % (k, want, names))
    m = {c["name"]: c["mpi"] for c in calls[k]}
    peer = 1 - k
    send_tag, recv_tag = (7, 8) if k == 0 else (8, 7)
    if (m["MPI_Send"]["peer"], m["MPI_Send"]["tag"], m["MPI_Send"]["bytes"], m["MPI_Send"]["comm"]) != (peer, send_tag, 16, 1):
        sys.exit("rank %d send %s" % (k, m["MPI_Send"]))
    if (m["MPI_Recv"]["peer"], m["MPI_Recv"]["tag"], m["MPI_Recv"]["bytes"]) != (peer, recv_tag, 16):
        sys.exit("rank %d recv %s" % (k, m["MPI_Recv"]))
    if (m["MPI_Bcast"]["seq"], m["MPI_Allreduce"]["seq"], m["MPI_Allreduce"]["bytes"]) != (1, 2, 24):
        sys.exit("rank %d collectives %s %s" % (k, m["MPI_Bcast"], m["MPI_Allreduce"]))
' "$T/dump.json"
check "WORLD is described on both ranks, and rank 1 measured its clock offset" py '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
worlds = [r for r in recs if r["kind"] == "comm" and r["comm"]["id"] == 1]
if sorted(r["rank"] for r in worlds) != [0, 1] or any(r["comm"]["members"] != [0, 1] for r in worlds):
    sys.exit("WORLD %s" % worlds)
cs = [r for r in recs if r["kind"] == "csync"]
if sorted((r["rank"], r["flags"]) for r in cs) != [(1, 0), (1, 1)]: sys.exit("csync %s" % cs)
' "$T/dump.json"
finish
