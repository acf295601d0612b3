#!/bin/sh
# What tprof-inspect says when the run did not go as hoped: a program that records nothing
# (why, and what would show something), a command that fails before any process recorded
# (its status; for an MPI launcher the flags it needs here), and a command killed by a signal
# (named, and where what it recorded until then is), each with the command's own exit status.
. "$(dirname "$0")/lib.sh"
plan 8

"$INSPECT" -o "$T/plain" -- /bin/true >"$T/plain.out" 2>"$T/plain.err"
rc=$?
[ $rc -eq 0 ] &&
	grep -q "no profile data was written to $T/plain: /bin/true made no call that tprof records (HIP, the Neuron runtime, MPI, NCCL/RCCL, roctx, tprof's own annotations), or did not load the recorder" "$T/plain.err" &&
	grep -q -- "--sample all records any program" "$T/plain.err"
ok $? "a program that records nothing: why, and what would (status $rc)"
[ $rc -eq 0 ] || diag "$(cat "$T/plain.err")"

"$INSPECT" -o "$T/fail" -- sh -c 'exit 3' >/dev/null 2>"$T/fail.err"
rc=$?
[ $rc -eq 3 ] && grep -q "sh exited with status 3 before any process was recorded; no profile data was written to $T/fail" "$T/fail.err" &&
	! grep -q -- "--sample all" "$T/fail.err"
ok $? "a command that fails before anything is recorded: its status, said (status $rc)"

if [ "$(id -u)" -ne 0 ] || ! command -v mpirun >/dev/null 2>&1 || ! mpirun --version 2>&1 | grep -q "Open MPI"; then
	skip "Open MPI's mpirun refusing root: needs root and Open MPI's mpirun"
else
	"$INSPECT" -o "$T/mpi" -- mpirun -np 2 /bin/true >/dev/null 2>"$T/mpi.err"
	rc=$?
	[ $rc -ne 0 ] && grep -q "mpirun exited with status $rc before any process was recorded" "$T/mpi.err" &&
		grep -q "needs --allow-run-as-root to run as root, and --oversubscribe" "$T/mpi.err"
	ok $? "mpirun as root without its flag: the status, and the flags it needs (status $rc)"
fi

# (In a sanitizer build UndefinedBehaviorSanitizer stops the null store before it faults, with
# its own report and status 1: there abort() is the crash.)
crash=segv:SEGV:139
[ "${SANITIZERS:-no}" = yes ] && crash=abort:ABRT:134
for how in $crash kill:KILL:137; do
	mode=${how%%:*}
	sig=${how#*:}
	want=${sig#*:}
	sig=${sig%:*}
	"$INSPECT" -o "$T/$mode" -- "$APPS/exits" "$mode" 100 >/dev/null 2>"$T/$mode.err"
	rc=$?
	[ $rc -eq "$want" ] &&
		grep -q "exits was killed by SIG$sig; what it recorded until then is in its spool, which tprof-analyze reads" "$T/$mode.err" &&
		grep -q "profile written to $T/$mode (1 process)" "$T/$mode.err"
	ok $? "killed by SIG$sig: named, and where its records are (status $rc)"
	[ $rc -eq "$want" ] || diag "$(tail -3 "$T/$mode.err")"
	"$ANALYZE" "$T/$mode" --summary=json >"$T/$mode.json" 2>/dev/null &&
		"$PY" -B "$CHECKS" events-read "$T/$mode.json"
	ok $? "killed by SIG$sig: tprof-analyze reads the 400 events it made"
done

"$INSPECT" -o "$T/seven" -- "$APPS/exits" thread 10 >/dev/null 2>"$T/seven.err"
rc=$?
[ $rc -eq 7 ] && ! grep -q "killed\|exited with" "$T/seven.err" && grep -q "profile written" "$T/seven.err"
ok $? "a recorded command that exits with 7: only the usual lines (status $rc)"
finish
