#!/bin/sh
# Recording an MPI program: apps/mpi-pattern on 4 ranks, under tprof-inspect running mpirun
# and under mpirun running tprof-inspect.  What the recorder wrote is read back with
# tools/dump-records and checked against the program (its calls, peers, tags, bytes, and the
# ground truth it prints): one profile per rank and none for mpirun, communicator ids, receive
# completions, receive and collective numbering, clock offsets to rank 0.  Then apps/mpi-comms
# (communicators made every way, every collective, every send mode), the API filter, a rank
# on another host (simulated), and tprof-inspect instances sharing one output directory.
. "$(dirname "$0")/lib.sh"
need_mpi apps/mpi-pattern
plan 39

APP="$APPS/mpi-pattern"
NP=4

# What the recorder wrote, as dump-records reads it, and the ground truth the program
# printed: what the checks (tools/checks/mpi-record.py) read.
D="$T/dump.json" TRUTH="$T/plain.out"

# ---- tprof-inspect -o OUT -- mpirun -np 4 apps/mpi-pattern ---------------------------------
"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APP" >"$T/plain.out" 2>"$T/plain.err"
ok $? "mpi-pattern runs on $NP ranks without the recorder"
"$INSPECT" -o "$T/out" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APP" >"$T/rec.out" 2>"$T/rec.err"
ok $? "and under tprof-inspect -- mpirun, with exit status 0"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/rec.out"
check "the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1"' sh "$T/rec.err"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"
pycheck "one profile per rank (0..3), none for mpirun" profile-per-rank "$D" "$TRUTH" "$T/out"

pycheck "every MPI call the program makes is recorded, once" every-call-once "$D" "$TRUTH"

pycheck "WORLD, SELF and the split communicators are described alike on their members" \
	communicators-alike "$D" "$TRUTH"

pycheck "calls carry their communicator: WORLD, or the split one (its id from MPI_Comm_split)" \
	calls-communicator "$D" "$TRUTH"

pycheck "point-to-point peers, tags and bytes are those the program used" \
	point-to-point "$D" "$TRUTH"

pycheck "collectives: roots, bytes sent and received, MPI_IN_PLACE-free, nonblocking flagged" \
	collectives "$D" "$TRUTH"

pycheck "each collective has the same seq on every member of its communicator, \
counted as the program did" collective-seqs "$D" "$TRUTH"

pycheck "every Irecv completes in one MPIREQ after the call that completed it: \
source, tag, bytes, post number" irecv-completions "$D" "$TRUTH"

pycheck "persistent requests: three starts and three completions, receive numbers per start" \
	persistent-requests "$D" "$TRUTH"

pycheck "receive post numbers count 1, 2, 3... in posting order" receive-numbers "$D" "$TRUTH"

pycheck "messages sent: as many as the program counted, and each received once" \
	messages-counted "$D" "$TRUTH"

pycheck "ranks 1..3 measured their clock offset to rank 0 at init and at finalize" \
	clock-offsets "$D" "$TRUTH"
check "nothing is left in a spool" sh -c '! ls "$1"/*.spool >/dev/null 2>&1' sh "$T/out"

# ---- mpirun -np 4 tprof-inspect -o OUT -- apps/mpi-pattern ---------------------------------
"$MPIRUN" $MPIRUN_FLAGS -np $NP "$INSPECT" -o "$T/out2" -- "$APP" >"$T/rec2.out" 2>"$T/rec2.err"
ok $? "mpirun -np $NP tprof-inspect -- mpi-pattern: exit status 0"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/rec2.out"
check "each instance reports the profile" test "$(grep -c 'profile written to' "$T/rec2.err")" -eq $NP
"$DUMP" "$T/out2" >"$T/dump2.json"
pycheck "one profile per rank, and every message sent is received" \
	ranks-and-messages "$T/dump2.json" "$TRUTH"
check "nothing is left in a spool" sh -c '! ls "$1"/*.spool >/dev/null 2>&1' sh "$T/out2"

# ---- apps/mpi-comms: communicators made every way, every collective, the rest -------------
if [ -x "$APPS/mpi-comms" ]; then
	"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/mpi-comms" >"$T/comms.plain" 2>"$T/comms.err"
	"$INSPECT" -o "$T/outc" -- "$MPIRUN" $MPIRUN_FLAGS -np $NP "$APPS/mpi-comms" \
		>"$T/comms.out" 2>"$T/comms.err"
	ok $? "mpi-comms runs under tprof-inspect -- mpirun"
	"$DUMP" "$T/outc" >"$T/dumpc.json"
	pycheck "every communicator has one id, described alike on exactly its members" \
		comms-described "$T/dumpc.json"
	pycheck "collective numbers agree on every communicator, inter-communicators too" \
		comms-collective-seqs "$T/dumpc.json"
	pycheck "collective bytes, MPI_IN_PLACE flagged" comms-collective-bytes "$T/dumpc.json"
	pycheck "its messages: probes, matched probes, all send modes, persistent pairs, \
each received once" comms-messages "$T/dumpc.json" "$T/comms.plain"
else
	skip "apps/mpi-comms was not built"
	skip "apps/mpi-comms was not built"
	skip "apps/mpi-comms was not built"
	skip "apps/mpi-comms was not built"
	skip "apps/mpi-comms was not built"
fi

# ---- the filter: calls left out, communicators still known --------------------------------
TPROF_MPI_API_FILTER_OUT=MPI_Comm_,MPI_Wait "$INSPECT" -o "$T/out3" -- \
	"$MPIRUN" $MPIRUN_FLAGS -np $NP "$APP" >"$T/rec3.out" 2>"$T/rec3.err"
ok $? "with TPROF_MPI_API_FILTER_OUT=MPI_Comm_,MPI_Wait the program runs"
"$DUMP" "$T/out3" >"$T/dump3.json"
pycheck "no MPI_Comm_* or MPI_Wait* call is recorded; the split communicator and completions are" \
	filtered-out "$T/dump3.json" "$TRUTH"
check "TPROF_MPI_API_FILTER=MPI_Barrier,MPI_Bcast records those alone" sh -c '
	TPROF_MPI_API_FILTER=MPI_Barrier,MPI_Bcast "$1" -o "$2/out4" -- "$3" $4 -np 2 "$5" \
		>/dev/null 2>&1 &&
	"$6" "$2/out4" | "$7" -B "$8" barrier-bcast-only' \
	sh "$INSPECT" "$T" "$MPIRUN" "$MPIRUN_FLAGS" "$APP" "$DUMP" "$PY" "$CHECKS"

# ---- ranks on another host ---------------------------------------------------------------
# Simulated: mpirun starts its daemon for "otherhost" through a launch agent that runs it
# here in a clean environment, as ssh would there, so rank 1 gets only what mpirun passes on.
cat >"$T/fake-ssh" <<'AGENT'
#!/bin/sh
shift
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done
exec env -i PATH=/usr/bin:/bin HOME=/ /bin/sh -c "$*"
AGENT
chmod +x "$T/fake-ssh"
cat >"$T/envp" <<'PROBE'
#!/bin/sh
echo "rank $OMPI_COMM_WORLD_RANK ${TPROF_ENABLE:-no}${LD_PRELOAD:+ preload} ${FOO:-}"
PROBE
chmod +x "$T/envp"
REMOTE="--mca plm_rsh_agent $T/fake-ssh --host $(hostname),otherhost --map-by node -np 2"
TPROF_ENABLE=1 "$MPIRUN" $MPIRUN_FLAGS $REMOTE "$T/envp" 2>"$T/remote0.err" | sort >"$T/remote0.out"
check "(the simulated other host gets only what mpirun passes on)" \
	test "$(cat "$T/remote0.out")" = "$(printf 'rank 0 1 \nrank 1 no ')"
"$INSPECT" -o "$T/out5" -- "$MPIRUN" $MPIRUN_FLAGS $REMOTE "$APP" >"$T/rec5.out" 2>"$T/rec5.err"
ok $? "tprof-inspect -- mpirun with a rank on another host: exit status 0"
"$DUMP" "$T/out5" >"$T/dump5.json"
pycheck "both ranks are recorded: tprof-inspect passed the recorder's variables with -x" \
	two-ranks "$T/dump5.json"
"$INSPECT" -o "$T/out6" -- "$MPIRUN" $MPIRUN_FLAGS -x FOO=bar $REMOTE "$T/envp" 2>"$T/remote6.err" |
	sort >"$T/remote6.out"
check "the program's own -x options still work beside them" \
	test "$(cat "$T/remote6.out")" = "$(printf 'rank 0 1 preload bar\nrank 1 1 preload bar')"
FOO=baz OMPI_MCA_mca_base_env_list="FOO" "$INSPECT" -o "$T/out7" -- \
	"$MPIRUN" $MPIRUN_FLAGS $REMOTE "$T/envp" 2>"$T/remote7.err" | sort >"$T/remote7.out"
check "with mca_base_env_list set, its names are added to it instead" \
	test "$(cat "$T/remote7.out")" = "$(printf 'rank 0 1 preload baz\nrank 1 1 preload baz')"
# PYTHONPATH, which leads to tprof's Python module, goes with them (each rank writes its line
# in one write: see tprof-enabled-rank).
cat >"$T/pyprobe" <<PROBE
#!/bin/sh
exec ${SYSTEM_PYTHON3:-/usr/bin/python3} -B "$CHECKS" tprof-enabled-rank
PROBE
chmod +x "$T/pyprobe"
"$INSPECT" -o "$T/out8" -- "$MPIRUN" $MPIRUN_FLAGS $REMOTE "$T/pyprobe" 2>"$T/remote8.err" |
	sort >"$T/remote8.out"
test "$(cat "$T/remote8.out")" = "$(printf 'rank 0 True\nrank 1 True')"
rc=$?
ok $rc "a Python rank on the other host imports tprof too, and records (PYTHONPATH passed with -x)"
[ $rc -eq 0 ] || diag "ranks said: $(cat "$T/remote8.out")" "$(head -n 20 "$T/remote8.err")"

# ---- tprof-inspect instances sharing a directory leave each other's spools alone ----------
# (another job's: written before jobs were recorded, hence --append.)  A spool whose buffers are all written out (so its process looks done) beside the output of
# a short run: kept while its process lives, tidied once it is gone.
mkdir -p "$T/shared"
sleep 30 &
live=$!
spool() { "$PY" -B "$CHECKS" write-spool "$1" "$2"; }
host=$(hostname | tr / _)
spool "$T/shared/$host.$live.0000beef.spool" "$live"
"$INSPECT" -o "$T/shared" --append -- true >/dev/null 2>&1
check "a finished run keeps the spool of a process still running" test -e "$T/shared/$host.$live.0000beef.spool"
kill "$live"
wait "$live" 2>/dev/null
"$INSPECT" -o "$T/shared" --append -- true >/dev/null 2>&1
check "and tidies it once that process is gone" test ! -e "$T/shared/$host.$live.0000beef.spool"
finish
