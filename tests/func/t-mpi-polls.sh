#!/bin/sh
# Polling MPI codes: apps/mpi-polls (2 ranks) polls with MPI_Test, MPI_Testany, MPI_Testsome,
# MPI_Testall, MPI_Iprobe and MPI_Improbe, alone and taking turns, in loops broken by other
# calls and by a tprof mark, once for a million unsuccessful tests, and prints what it did.
# By default each run of consecutive unsuccessful polls on a thread is one span with its count;
# the summary still has every function's exact number of calls; every poll that found
# something is recorded as before (its completions, its message arrows); the profile stays
# small.  TPROF_POLLS=each records every poll by itself.  Also with a second thread polling at
# the same time (MPI_THREAD_MULTIPLE), and in OTF2.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-polls
plan 20
# The ranks spin instead of yielding (need_mpi's default): a million unsuccessful tests that
# each yield hand the CPU to any other runnable task for a whole time slice, and on a loaded
# machine the test would take an hour.  Two ranks fit the two cores this runs on.
OMPI_MCA_mpi_yield_when_idle=0

APP="$top_builddir/tests/apps/mpi-polls"
"$INSPECT" -o "$T/runs" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" >"$T/truth.json" 2>"$T/rec.err"
ok $? "mpi-polls runs on 2 ranks under tprof-inspect"
"$ANALYZE" "$T/runs" -f chrome -o "$T/runs.json" -s >"$T/runs.txt" 2>"$T/runs.err"
ok $? "tprof-analyze writes the Chrome trace and the summary"

pycheck "the summary has the exact number of calls of every polling function" \
	summary-calls "$T/runs.txt" "$T/truth.json"

pycheck "each run of unsuccessful polls is one span, named for its functions, with its count, in order" \
	runs-exact "$T/runs.json" "$T/truth.json"

pycheck "a run's time inside the calls lies within its span; the functions' counts add up" \
	runs-time "$T/runs.json" "$T/truth.json"

pycheck "every poll that found something is a span of its own" \
	single-polls "$T/runs.json" "$T/truth.json"

"$DUMP" "$T/runs" >"$T/runs.rec" && "$PY" -B "$CHECKS" poll-records "$T/runs.rec" "$T/truth.json"
ok $? "the recorder's POLL records count every unsuccessful poll (dump-records)"

# Which polls of a run are timed: mpi-polls.py says, by the checks timed-per-function and
# timed-per-run.
pycheck "long runs of polls time no more than one in 17, their busy time within timed x min and timed x max" \
	timed-per-function "$T/runs.rec"

pycheck "a run times its first 16 polls and then one in 127" timed-per-run "$T/runs.rec"

grep -q "unmatched:   0 sends, 0 receives" "$T/runs.txt" &&
	! grep -q "[1-9][0-9,]* receives never completed" "$T/runs.txt"
ok $? "every message is matched: the completing polls keep their completions"

size=$(du -sb "$T/runs" | cut -f1)
misses=$("$PY" -B "$CHECKS" print-misses "$T/truth.json")
[ "$size" -lt 1000000 ] && [ "$misses" -ge 1000000 ]
ok $? "the profile of $misses unsuccessful polls takes $size bytes (under 1 MB)"

# Every poll recorded by itself.
TPROF_POLLS=each "$INSPECT" -o "$T/each" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" >"$T/each-truth.json" 2>"$T/each.err" &&
	"$ANALYZE" "$T/each" -f chrome -o "$T/each.json" -s >"$T/each.txt" 2>>"$T/each.err"
ok $? "TPROF_POLLS=each: recorded and analyzed"
"$PY" -B "$CHECKS" each-poll-spans "$T/each.json" "$T/each-truth.json" "$T/each.txt"
ok $? "TPROF_POLLS=each: one span per call, the same counts ($(du -sb "$T/each" | cut -f1) bytes)"

TPROF_POLLS=sometimes "$INSPECT" -o "$T/bad" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" >"$T/bad.json" 2>"$T/bad.err" &&
	grep -q 'TPROF_POLLS="sometimes" is not one of runs, each; using runs' "$T/bad.err"
ok $? "a bad TPROF_POLLS is named in a warning, and runs are kept"

# Killed while polling: the run so far is in the profile (its record lives in the mapped
# buffer, updated in place, and the kernel keeps it).
"$INSPECT" -o "$T/kill" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" forever >"$T/kill.out" 2>"$T/kill.err" &
for _i in $(seq 1 300); do grep -q "^polling" "$T/kill.out" && break; sleep 0.1; done
read -r _w kpid kn <"$T/kill.out"
# (Without its line in 30 s, every rank of it goes, so that the test cannot hang.)
[ -n "$kpid" ] && kill -9 "$kpid" 2>/dev/null || pkill -9 -f "$APP forever"
wait
"$ANALYZE" "$T/kill" -f chrome -o "$T/kill.json" 2>"$T/kill-an.err" &&
	"$PY" -B "$CHECKS" killed-run "$T/kill.json" "${kn:-1}"
ok $? "rank 0 killed (SIGKILL) while polling: its run is in the profile with at least the ${kn:-?} polls it reported"

# A second thread polls while the first one does.
"$INSPECT" -o "$T/thr" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" threads >"$T/thr-truth.json" 2>"$T/thr.err" &&
	"$ANALYZE" "$T/thr" -f chrome -o "$T/thr.json" -s >"$T/thr.txt" 2>>"$T/thr.err"
ok $? "mpi-polls threads (MPI_THREAD_MULTIPLE) recorded and analyzed"
pycheck "two threads polling at once: each thread's runs and the counts are exact" \
	thread-runs "$T/thr.json" "$T/thr-truth.json" "$T/thr.txt"
grep -q "unmatched:   0 sends, 0 receives" "$T/thr.txt"
ok $? "two threads polling at once: every message is matched"

# OTF2: a run is one region visit with its count.
if [ "${OTF2_PRINT:-no}" != no ] && [ -x "$OTF2_PRINT" ]; then
	. "$(dirname "$0")/lib-otf2.sh"
	"$ANALYZE" "$T/runs" -f otf2 -o "$T/otf2" 2>"$T/otf2.err" && otf2_print "$T/otf2/traces.otf2" "$T/otf2.txt"
	ok $? "OTF2: otf2-print reads the archive without complaint"
	pycheck "OTF2: regions nest, and their polls attributes add up to every unsuccessful poll" \
		otf2-polls "$T/otf2.txt" "$T/truth.json"
else
	skip "otf2-print not found (on Debian: apt-get install otf2-tools)"
	skip "otf2-print not found (on Debian: apt-get install otf2-tools)"
fi
