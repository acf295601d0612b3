#!/bin/sh
# MPICH's ABI (integer handles, its own MPI_Status and constants), found at run time: the MPI
# test programs built with Debian's MPICH (mpicc.mpich, mpif90.mpich) and launched by its
# Hydra (mpirun.mpich) are recorded as the Open MPI builds are, by the same recorder, and pass
# the same checks: apps/mpi-pattern (tools/checks/mpi-record.py, mpi-analyze.py),
# apps/mpi-comms (communicators, collectives, every send mode, matched probes),
# apps/mpi-polls (runs of polls, exact counts), apps/mpi-pattern.F90 under mpif.h, use mpi and
# use mpi_f08;
# and every call is counted as an independent interposer counts it (mpi-counts.py).
. "$(dirname "$0")/lib.sh"
need_mpich apps/mpich-pattern apps/mpich-comms apps/mpich-polls
plan 82

RUN="$MPIRUN_MPICH"
NP=4
R=$top_srcdir/tests/tools/checks

# ---- apps/mpi-pattern -------------------------------------------------------------------
APP="$APPS/mpich-pattern" D="$T/dump.json" TRUTH="$T/plain.out"
"$RUN" -np $NP "$APP" >"$TRUTH" 2>"$T/plain.err"
ok $? "mpi-pattern built with MPICH runs on $NP ranks ($(cat "$TRUTH"))"
"$INSPECT" -o "$T/out" -- "$RUN" -np $NP "$APP" >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect -- mpirun.mpich, with exit status 0"
check "its output is unchanged" cmp -s "$TRUTH" "$T/rec.out"
check "the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/rec.err"
"$DUMP" "$T/out" >"$D"
ok $? "dump-records reads the profile"
pycheck_in mpi-record "one profile per rank (0..3), none for the launcher" \
	profile-per-rank "$D" "$TRUTH" "$T/out"
for c in every-call-once communicators-alike calls-communicator point-to-point collectives \
	collective-seqs irecv-completions persistent-requests receive-numbers messages-counted \
	clock-offsets; do
	pycheck_in mpi-record "mpi-pattern: $c (as with Open MPI)" "$c" "$D" "$TRUTH"
done
"$ANALYZE" "$T/out" -f chrome -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/an.err"
ok $? "tprof-analyze writes the Chrome trace and the summary"
pycheck_in mpi-analyze "every message matched: one arrow from send to receive" \
	messages-matched "$T/t.json" "$TRUTH"
pycheck_in mpi-analyze "every collective found on all members of its communicator" \
	collectives-complete "$T/t.json" "$TRUTH"

# ---- apps/mpi-comms ---------------------------------------------------------------------
"$RUN" -np $NP "$APPS/mpich-comms" >"$T/comms.plain" 2>"$T/comms.perr"
"$INSPECT" -o "$T/outc" -- "$RUN" -np $NP "$APPS/mpich-comms" >"$T/comms.out" 2>"$T/comms.err"
ok $? "mpi-comms built with MPICH runs under tprof-inspect"
"$DUMP" "$T/outc" >"$T/dumpc.json"
pycheck_in mpi-record "mpi-comms: every communicator has one id, described alike on its members" \
	comms-described "$T/dumpc.json"
pycheck_in mpi-record "mpi-comms: collective numbers agree on every communicator" \
	comms-collective-seqs "$T/dumpc.json"
pycheck_in mpi-record "mpi-comms: collective bytes, MPI_IN_PLACE flagged" \
	comms-collective-bytes "$T/dumpc.json"
pycheck_in mpi-record "mpi-comms: probes, matched probes, all send modes, persistent pairs" \
	comms-messages "$T/dumpc.json" "$T/comms.plain"

# ---- apps/mpi-polls ---------------------------------------------------------------------
"$INSPECT" -o "$T/runs" -- "$RUN" -np 2 "$APPS/mpich-polls" >"$T/polls.json" 2>"$T/polls.err" &&
	"$ANALYZE" "$T/runs" -f chrome -o "$T/runs.json" -s >"$T/runs.txt" 2>"$T/runs.err"
ok $? "mpi-polls built with MPICH runs on 2 ranks under tprof-inspect, and is analyzed"
pycheck_in mpi-polls "mpi-polls: the summary has the exact number of calls of every poll" \
	summary-calls "$T/runs.txt" "$T/polls.json"
pycheck_in mpi-polls "mpi-polls: each run of unsuccessful polls is one span, with its count" \
	runs-exact "$T/runs.json" "$T/polls.json"
pycheck_in mpi-polls "mpi-polls: every poll that found something is a span of its own" \
	single-polls "$T/runs.json" "$T/polls.json"
grep -q "unmatched:   0 sends, 0 receives" "$T/runs.txt"
ok $? "mpi-polls: every message is matched"

# ---- Fortran: mpif.h, use mpi and use mpi_f08 -------------------------------------------
# MPICH's bindings of mpif.h and use mpi call the C functions; those of use mpi_f08 without a
# buffer call PMPI_ functions, and are recorded by their own wrappers (fortran-mpich/).
for b in mpifh usempi f08; do
	if [ -x "$APPS/mpich-pattern-$b" ]; then
		"$INSPECT" -o "$T/out-$b" -- "$RUN" -np $NP "$APPS/mpich-pattern-$b" \
			>"$T/rec-$b.out" 2>"$T/rec-$b.err" && cmp -s "$TRUTH" "$T/rec-$b.out" &&
			! grep -q "^tprof\[" "$T/rec-$b.err" && "$DUMP" "$T/out-$b" >"$T/dump-$b.json"
		ok $? "Fortran ($b) built with MPICH: recorded silently, its output the C program's"
		for c in every-call-once communicators-alike calls-communicator point-to-point \
			collectives collective-seqs irecv-completions persistent-requests \
			receive-numbers messages-counted clock-offsets; do
			pycheck_in mpi-record "Fortran ($b): $c (as the C program)" "$c" \
				"$T/dump-$b.json" "$TRUTH"
		done
		"$ANALYZE" "$T/out-$b" -f chrome -o "$T/t-$b.json" >/dev/null 2>"$T/an-$b.err"
		ok $? "Fortran ($b): tprof-analyze writes the Chrome trace"
		pycheck_in mpi-analyze "Fortran ($b): every message matched by one arrow" \
			messages-matched "$T/t-$b.json" "$TRUTH"
		pycheck_in mpi-analyze "Fortran ($b): every collective found on all its members" \
			collectives-complete "$T/t-$b.json" "$TRUTH"
	else
		skips 15 "apps/mpich-pattern-$b was not built (no mpif90.mpich)"
	fi
done

# ---- every call counted -----------------------------------------------------------------
LIBS=$(ldd "$APPS/mpich-pattern-mpifh" "$APPS/mpich-pattern-f08" "$APP" 2>/dev/null |
	awk '$1 ~ /^libmpich/ && $3 ~ /^\// {print $3}' | sort -u)
"$PY" -B "$top_srcdir/tests/tools/mpi-count-gen.py" $LIBS >"$T/mpi-count.c" &&
	"$MPICC_MPICH" -O1 -shared -fPIC -o "$T/mpi-count.so" "$T/mpi-count.c" -ldl
ok $? "the counting interposer builds from MPICH's libraries"
for p in mpich-pattern mpich-pattern-mpifh mpich-pattern-f08; do
	mkdir -p "$T/count-$p"
	# The recorder through the environment, the interposer after it (as in t-mpi-counts.sh).
	TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/cnt-$p" LD_PRELOAD="$PRELOAD_ENV:$T/mpi-count.so" \
		MPI_COUNT_DIR="$T/count-$p" "$RUN" -np $NP "$APPS/$p" >/dev/null 2>"$T/cnt-$p.err" &&
		"$ANALYZE" "$T/cnt-$p" --summary=json >"$T/sum-$p.json" 2>>"$T/cnt-$p.err"
	ok $? "$p: recorded beside the interposer"
	pycheck_in mpi-counts "$p: every function called recorded as often as counted" \
		same-counts "$T/count-$p" "$T/sum-$p.json"
done
finish
