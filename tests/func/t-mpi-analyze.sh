#!/bin/sh
# tprof-analyze on a real MPI job: apps/mpi-pattern on 4 ranks under tprof-inspect (ring,
# Isend/Irecv + Waitall, ANY_SOURCE and ANY_TAG receives, Sendrecv, Probe, persistent
# requests, collectives on MPI_COMM_WORLD and on a split communicator, MPI_Iallreduce).
# Every message the program reports sending is matched and drawn as one flow arrow from the
# sending call to the call that completed its receive, none backwards in time; every
# collective is found on all members of its communicator; the summary agrees.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
plan 8

APP="$APPS/mpi-pattern"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APP" >"$T/truth.json" 2>"$T/rec.err"
_rc=$?
ok $_rc "mpi-pattern runs on 4 ranks under tprof-inspect ($(cat "$T/truth.json"))"
[ $_rc = 0 ] || { diag "exit status $_rc; what it said:"; tail -8 "$T/rec.err" | sed 's/^/# /'; }

"$ANALYZE" "$T/out" -f chrome -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/err.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

pycheck "the four processes are named rank 0..3 (host, pid) in rank order" \
	rank-order "$T/t.json" "$T/truth.json"
pycheck "every message matched: one flow each, from its sending call to the call completing its \
receive" messages-matched "$T/t.json" "$T/truth.json"
pycheck "no message arrow points backwards in time" forward-arrows "$T/t.json" "$T/truth.json"
pycheck "every collective is found on all members of its communicator (world and both halves)" \
	collectives-complete "$T/t.json" "$T/truth.json"

M=$("$PY" -B "$CHECKS" messages "$T/truth.json")
C=$("$PY" -B "$CHECKS" collective-instances "$T/truth.json")
grep -q "^  matched:     $M messages" "$T/sum.txt" && grep -q "^  unmatched:   0 sends, 0 receives" "$T/sum.txt" &&
	! grep -q "^  incomplete:" "$T/sum.txt"
ok $? "the summary: $M messages matched, none unmatched, no incomplete collective"
awk '/^MPI collectives/ {c = 1; next} c && /^$/ {c = 0} c && $1 ~ /^[0-9]+$/ {n += $1} END {print n + 0}' \
	"$T/sum.txt" >"$T/n.txt"
[ "$(cat "$T/n.txt")" = "$C" ]
ok $? "and $C collective instances ($(cat "$T/n.txt") in its table)"
finish
