#!/bin/sh
# Jobs under MPI launchers: all ranks of one launch share one job id, two launches differ,
# whether tprof-inspect runs the launcher, the launcher runs one tprof-inspect per rank (each
# takes the launcher's own job identity), or the environment alone turns the recorder on
# (a rank on a simulated other host included).  Open MPI's mpirun with apps/mpi-pattern, and
# MPICH's Hydra (mpirun.mpich) when it is installed.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
plan 16

APP="$APPS/mpi-pattern"
# jobs DIR: "COUNT COUNT ..." of chunk files per job under DIR, sorted; a job per word.
jobs() { "$PY" -B "$CHECKS" print-jobs "$1"; }

# ---- Open MPI ------------------------------------------------------------------------------
"$INSPECT" -o "$T/a" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 "$APP" >/dev/null 2>"$T/a.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(jobs "$T/a")" = 2 ]
ok $? "tprof-inspect -- mpirun -np 2: both ranks in one job (got '$(jobs "$T/a")', status $rc)"

"$MPIRUN" $MPIRUN_FLAGS -np 2 "$INSPECT" -o "$T/b" -- "$APP" >/dev/null 2>"$T/b.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(jobs "$T/b")" = 2 ]
ok $? "mpirun -np 2 tprof-inspect: the two tprof-inspects agree on one job (got '$(jobs "$T/b")', status $rc)"
[ "$rc" -eq 0 ] || diag "$(head -5 "$T/b.err")"
"$MPIRUN" $MPIRUN_FLAGS -np 2 "$INSPECT" -o "$T/b" -- "$APP" >/dev/null 2>"$T/b2.err"
rc=$?
[ "$rc" -ne 0 ] && [ "$(jobs "$T/b")" = 2 ] && grep -q "already holds the profile of another job" "$T/b2.err"
ok $? "a second launch into the directory is refused by the ranks (status $rc)"
"$MPIRUN" $MPIRUN_FLAGS -np 2 "$INSPECT" -o "$T/b" --append -- "$APP" >/dev/null 2>"$T/b3.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(jobs "$T/b")" = "2 2" ]
ok $? "with --append: two jobs of two ranks each (got '$(jobs "$T/b")')"
"$ANALYZE" "$T/b" --summary=json >"$T/b.json" 2>"$T/b.err2"
[ $? -eq 0 ] && grep -q "holds 2 jobs; analyzing the latest" "$T/b.err2" &&
	"$PY" -B "$CHECKS" latest-launch "$T/b.json"
rc=$?
ok $rc "the analyzer takes the latest launch: rank 0 and rank 1 once each, 2 processes"
[ $rc -eq 0 ] || diag "$(cat "$T/b.err2")"
"$ANALYZE" "$T/b" --job all --summary >"$T/ball.txt" 2>&1 &&
	sed -n 's/^  processes: *//p' "$T/ball.txt" | grep -q '^4 '
ok $? "--job all: the 4 processes of both launches"

mkdir "$T/c"
(cd "$T/c" && "$MPIRUN" $MPIRUN_FLAGS -np 2 "$INSPECT" -- "$APP" >/dev/null 2>"$T/c.err")
rc=$?
[ "$rc" -eq 0 ] && [ "$(ls "$T/c")" = tprof-out-1 ] && [ "$(jobs "$T/c/tprof-out-1")" = 2 ] &&
	[ "$(grep -c 'profile written to tprof-out-1 ' "$T/c.err")" -eq 2 ]
rc=$?
ok $rc "mpirun -np 2 tprof-inspect without -o: both ranks share tprof-out-1 (got: $(ls "$T/c" | tr '\n' ' '))"
[ $rc -eq 0 ] || diag "$(cat "$T/c.err")"

# The environment alone, mpirun itself preloaded (it records nothing, but makes a job id its
# local rank inherits), one rank on a simulated other host that inherits nothing: the
# launcher's own job identity must win, or the two ranks would differ.
cat >"$T/fake-ssh" <<'AGENT'
#!/bin/sh
shift
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done
exec env -i PATH=/usr/bin:/bin HOME=/ /bin/sh -c "$*"
AGENT
chmod +x "$T/fake-ssh"
REMOTE="--mca plm_rsh_agent $T/fake-ssh --host $(hostname),otherhost --map-by node -np 2"
for i in 1 2; do
	TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/e" LD_PRELOAD="$PRELOAD_ENV" \
		"$MPIRUN" $MPIRUN_FLAGS -x TPROF_ENABLE -x TPROF_OUTPUT_DIR -x LD_PRELOAD $REMOTE \
		"$APP" >/dev/null 2>"$T/e$i.err"
done
[ "$(jobs "$T/e")" = "2 2" ]
ok $? "environment only, a rank on another host: each launch one job of its 2 ranks (got '$(jobs "$T/e")')"
for i in 1 2; do
	TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/f" "$MPIRUN" $MPIRUN_FLAGS -np 2 \
		-x TPROF_ENABLE -x TPROF_OUTPUT_DIR -x LD_PRELOAD="$PRELOAD_ENV" "$APP" >/dev/null 2>&1
done
[ "$(jobs "$T/f")" = "2 2" ]
ok $? "environment only, mpirun not preloaded: each launch one job of its 2 ranks (got '$(jobs "$T/f")')"

# ---- MPICH's Hydra -------------------------------------------------------------------------
# Hydra gives its ranks no job identity in the environment; its proxies' command line does.
HYDRA=$(command -v mpirun.mpich || command -v mpiexec.hydra || true)
if [ -z "$HYDRA" ]; then
	for i in 1 2 3 4 5 6 7; do skip "no MPICH (mpirun.mpich; on Debian: apt-get install mpich)"; done
	finish
	exit
fi
PROG="$APPS/threads"
"$HYDRA" -np 2 "$INSPECT" -o "$T/h" -- "$PROG" 1 10 >/dev/null 2>"$T/h.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(jobs "$T/h")" = 2 ]
ok $? "mpirun.mpich -np 2 tprof-inspect: one job of 2 (got '$(jobs "$T/h")', status $rc)"
[ "$rc" -eq 0 ] || diag "$(head -5 "$T/h.err")"
"$HYDRA" -np 2 "$INSPECT" -o "$T/h" -- "$PROG" 1 10 >/dev/null 2>"$T/h2.err"
rc=$?
[ "$rc" -ne 0 ] && [ "$(jobs "$T/h")" = 2 ]
ok $? "a second launch into it is refused (status $rc)"
"$HYDRA" -np 2 "$INSPECT" -o "$T/h" --append -- "$PROG" 1 10 >/dev/null 2>&1
[ "$(jobs "$T/h")" = "2 2" ]
ok $? "with --append: two jobs of 2 (got '$(jobs "$T/h")')"
"$INSPECT" -o "$T/h3" -- "$HYDRA" -np 2 "$PROG" 1 10 >/dev/null 2>&1
"$INSPECT" -o "$T/h3" --append -- "$HYDRA" -np 2 "$PROG" 1 10 >/dev/null 2>&1
[ "$(jobs "$T/h3")" = "2 2" ]
ok $? "tprof-inspect -- mpirun.mpich -np 2, twice: two jobs of 2 (got '$(jobs "$T/h3")')"
for i in 1 2; do
	TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/h4" LD_PRELOAD="$PRELOAD_ENV" "$HYDRA" -np 2 "$PROG" 1 10 \
		>/dev/null 2>&1
done
[ "$(jobs "$T/h4")" = "2 2" ]
ok $? "environment only, mpiexec preloaded, twice: two jobs of 2 (got '$(jobs "$T/h4")')"
mkdir "$T/hc"
(cd "$T/hc" && "$HYDRA" -np 2 "$INSPECT" -- "$PROG" 1 10 >/dev/null 2>&1)
[ "$(ls "$T/hc")" = tprof-out-1 ] && [ "$(jobs "$T/hc/tprof-out-1")" = 2 ]
ok $? "mpirun.mpich -np 2 tprof-inspect without -o: both ranks in tprof-out-1 (got: $(ls "$T/hc" | tr '\n' ' '))"
"$ANALYZE" "$T/h" --job all --summary >"$T/h.txt" 2>&1 &&
	[ "$(grep -c '^  job: ' "$T/h.txt")" -eq 2 ] && sed -n 's/^  processes: *//p' "$T/h.txt" | grep -q '^4 '
ok $? "the analyzer finds the two Hydra launches, 4 processes"
finish
