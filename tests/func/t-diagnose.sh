#!/bin/sh
# --diagnose held to ground truth: apps/diag-causes, 4 MPI ranks over the stand-in HIP and NCCL
# runtimes, with one cause of slowness injected per run and measured by the program itself (a
# rank that sleeps before an allreduce in one step, a rank whose kernel is slower every step, a
# late sender, a late receiver, a host-bound launch loop of tiny kernels, a copy that holds a
# kernel back on its stream, a rank that sleeps before an NCCL allreduce, a rank that waits
# for its CPU while another process spins on it — seen by the system profile).  The top
# finding must name the cause: its kind, rank, step and time within 10 %.  Also: nothing
# found in a balanced job, the parts of each process's time adding up to it, the text, the
# diagnosis with and without the tables, a profile without steps, and --parallel refused.
. "$(dirname "$0")/lib.sh"
[ -x "$APPS/diag-causes" ] ||
	skip_all "apps/diag-causes was not built (it needs mpicc, mpirun and the stand-in NCCL)"
need_mpi apps/diag-causes
[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnccl.so.2" ] ||
	skip_all "no stand-in NCCL or HIP runtime (configure found no usable HIP headers)"
LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# Each cause is made larger than what a loaded machine adds by chance (a sanitizer build
# beside a parallel make and two busy loops has held a rank 180 ms in one device sync, a busy
# check machine one 420 ms: the slow kernel's 100 ms a step, 1 s in all, is well above).
SLOW_US=120000 STEP_US=20000 MS=400
STANDIN_HIP_KERNEL_US="slow_kernel:$SLOW_US,step_kernel:$STEP_US,tiny_kernel:5,default:10"
# copy-block: 64 MiB at 1 GB/s, a copy the host makes well within its modelled time
COPY_MB=64 STANDIN_HIP_COPY_GBPS=1
export LD_LIBRARY_PATH STANDIN_HIP_KERNEL_US STANDIN_HIP_COPY_GBPS
plan 48

# run SCENARIO "ARGS" [INSPECT OPTIONS]: records it (4 ranks) with its arguments and writes
# its diagnosis as JSON
run() {
	_s=$1 _a=$2
	shift 2
	# shellcheck disable=SC2086
	set -- "$@" -o "$T/p-$_s" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/diag-causes" "$_s" $_a
	"$INSPECT" "$@" >"$T/out-$_s" 2>"$T/err-$_s" &&
		"$ANALYZE" "$T/p-$_s" --diagnose --summary-format json >"$T/d-$_s.json" \
			2>"$T/aerr-$_s"
	_rc=$?
	ok $_rc "$_s: recorded and diagnosed"
	[ $_rc -eq 0 ] || diag "$(tail -n 3 "$T/err-$_s" "$T/aerr-$_s")"
}

# the arguments of each scenario (apps/diag-causes.c)
args() {
	case $1 in
	late-coll | nccl-late) echo "2 3 $MS" ;;
	late-sender | late-receiver) echo "4 $MS" ;;
	copy-block) echo "$COPY_MB" ;;
	esac
}
for s in late-coll slow-kernel late-sender late-receiver host-bound copy-block nccl-late; do
	run "$s" "$(args "$s")"
	pycheck "$s: the top finding names the cause (kind, rank, step, time within 10%)" top \
		"$s" "$T/out-$s" "$T/d-$s.json" $SLOW_US $STEP_US $COPY_MB $STANDIN_HIP_COPY_GBPS
	pycheck "$s: each process's parts add up to its time, each step's too" adds-up \
		"$T/d-$s.json"
done

pycheck "host-bound: launches by stream and kernel, communication hidden under compute" \
	launches "$T/out-host-bound" "$T/d-host-bound.json"
pycheck "late-coll: step 3 is the slowest, its critical path through rank 2's sleep into \
MPI_Allreduce" slow-step "$T/out-late-coll" "$T/d-late-coll.json" MPI_Allreduce
pycheck "nccl-late: the same through AllReduce on the devices" slow-step "$T/out-nccl-late" \
	"$T/d-nccl-late.json" AllReduce

# Waiting for a CPU needs the thread states of the kernel's scheduler (BPF): /proc shows a
# thread ready to run as running.
if [ "$(id -u)" = 0 ] && [ "${BPF_STATUS:-}" = yes ]; then
	run cpu-contention "1 5 150" --sample sched
	pycheck "cpu-contention: the top finding names the cause" top cpu-contention \
		"$T/out-cpu-contention" "$T/d-cpu-contention.json"
else
	skips 2 "the thread states that show a thread waiting for a CPU need BPF, as root"
fi

run balanced ""
pycheck "balanced: no finding costing $MS ms (what each cause injected costs)" quiet \
	"$T/d-balanced.json" $MS
pycheck "each finding's command opens its step of this profile" look "$T/d-late-coll.json" \
	"$T/p-late-coll"

"$ANALYZE" "$T/p-late-coll" --diagnose >"$T/text" 2>"$T/err" &&
	grep -q "^Findings, by the time they cost" "$T/text" &&
	grep -Eq "^  1\. rank 2 came last to MPI_Allreduce .*(longest [0-9.]+ ms in step 3|: [0-9.]+ ms, in step 3)" "$T/text" &&
	grep -q "^     look: tprof-analyze $T/p-late-coll --steps 3 -f perfetto" "$T/text" &&
	! grep -q "^Ranges\|^MPI$" "$T/text"
ok $? "text: the findings first, rank 2 late in step 3, the command; no tables without -s"
[ $? -eq 0 ] || diag "$(head -30 "$T/text")"

"$ANALYZE" "$T/p-late-coll" --diagnose -s >"$T/both" 2>"$T/err" &&
	grep -q "^Findings" "$T/both" && grep -q "^MPI" "$T/both" &&
	[ "$(grep -n '^Findings' "$T/both" | cut -d: -f1)" -lt "$(grep -n '^MPI' "$T/both" | head -1 | cut -d: -f1)" ]
ok $? "--diagnose -s: the diagnosis, then the tables"

"$ANALYZE" "$T/p-late-coll" --diagnose -s --summary-format json >"$T/both.json" 2>"$T/err" &&
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "diagnosis" in d and "mpi" in d' \
		"$T/both.json"
ok $? "--diagnose -s --summary-format json: one document with the diagnosis and the tables"

"$ANALYZE" "$T/p-late-coll" --diagnose -f sqlite -o "$T/d.db" >"$T/d-text" 2>"$T/err" &&
	"$ANALYZE" "$T/p-late-coll" -f sqlite -o "$T/plain.db" >"$T/out" 2>"$T/err" &&
	grep -q "^Findings" "$T/d-text"
ok $? "--diagnose --format sqlite: the database, and the diagnosis on standard output"
pycheck "the database's diag_* tables hold what the JSON says" sqlite-tables \
	"$T/d-late-coll.json" "$T/d.db" "$T/plain.db"

# With TPROF_CALLSTACK=1 every MPI call records its stack: each wait state and finding names
# the program's function that made the call (apps/diag-causes: p2p sends and receives,
# allreduce); MPI_Init's stack, recorded before the process had written anything, has its
# frames named too.
TPROF_CALLSTACK=1 "$INSPECT" -o "$T/p-stacks" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 \
	"$APPS/diag-causes" late-sender 4 $MS >"$T/out-stacks" 2>&1 &&
	"$ANALYZE" "$T/p-stacks" --diagnose --summary-format json >"$T/d-stacks.json" 2>"$T/err" &&
	"$ANALYZE" "$T/p-stacks" -f chrome -o "$T/stacks.json" 2>"$T/err" &&
	"$PY" -c 'import json,sys
d = json.load(open(sys.argv[1]))["diagnosis"]
f = d["findings"][0]
assert f["kind"] == "late_sender" and f["caller"] == "p2p", f
rows = {(w["site"], w["caller"]) for w in d["wait_states"]}
assert (None, "p2p") in rows and ("MPI_Allreduce", "allreduce") in rows, rows
ev = json.load(open(sys.argv[2]))
ev = ev["traceEvents"] if isinstance(ev, dict) else ev
init = [e for e in ev if e.get("name") == "MPI_Init" and e.get("ph") == "X"]
assert init and all("main" in e["args"]["stack"] for e in init), init[:1]' \
		"$T/d-stacks.json" "$T/stacks.json"
ok $? "TPROF_CALLSTACK=1: wait states and findings name the calling function (p2p, allreduce)"
[ $? -eq 0 ] || diag "$(head -c 600 "$T/d-stacks.json")"

# A window: only the steps it holds whole.
"$ANALYZE" "$T/p-late-coll" --diagnose --steps 3:4 --summary-format json >"$T/win.json" 2>"$T/err" &&
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))["diagnosis"]; f=d["findings"][0]
assert [s["step"] for s in d["steps"]] == [3, 4], d["steps"]
assert f["process"]["rank"] == 2 and f["longest"]["where"]["step"] == 3, f' "$T/win.json"
ok $? "--steps 3:4: steps 3 and 4 diagnosed (not the edges of 2 and 5), rank 2 late in step 3"

# A profile without steps: each process's run.
"$INSPECT" -o "$T/p-nosteps" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/mpi-pattern" \
	>"$T/out-nosteps" 2>&1 &&
	"$ANALYZE" "$T/p-nosteps" --diagnose --summary-format json >"$T/d-nosteps.json" 2>"$T/err" &&
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1]))["diagnosis"]; assert d["covers"] == "runs" and len(d["processes"]) == 4 and d["wait_states"]' \
		"$T/d-nosteps.json"
ok $? "without steps: each process's run, and the wait states of apps/mpi-pattern"
pycheck "without steps: the parts add up" adds-up "$T/d-nosteps.json"

# --parallel: K analysis processes write the serial diagnosis, byte for byte, text and JSON
# (messages and collectives between processes two of them read, the CPU takers of another
# reader's process, the critical paths across readers, the call sites).
# same_par NAME PROFILE K LAUNCHER...: the check.
same_par() {
	_sp_name=$1 _sp_dir=$2 _sp_k=$3
	shift 3
	"$ANALYZE" "$_sp_dir" --diagnose >"$T/ser.text" 2>/dev/null &&
		"$ANALYZE" "$_sp_dir" --diagnose --summary-format json >"$T/ser.json" 2>/dev/null &&
		"$@" -np "$_sp_k" "$ANALYZE" "$_sp_dir" --parallel --diagnose >"$T/par.text" \
			2>"$T/par.err" &&
		"$@" -np "$_sp_k" "$ANALYZE" "$_sp_dir" --parallel --diagnose \
			--summary-format json >"$T/par.json" 2>>"$T/par.err"
	_sp_rc=$?
	diff "$T/ser.text" "$T/par.text" | head -5 | sed 's/^/# /'
	check "$_sp_name: $_sp_k analysis processes write the serial diagnosis, text and JSON" \
		sh -c '[ "$1" = 0 ] && cmp -s "$2/ser.text" "$2/par.text" &&
			cmp -s "$2/ser.json" "$2/par.json"' - "$_sp_rc" "$T"
}
for k in 2 3 4; do
	same_par late-coll "$T/p-late-coll" $k $MPIRUN $MPIRUN_FLAGS
done
same_par nccl-late "$T/p-nccl-late" 3 $MPIRUN $MPIRUN_FLAGS
same_par late-receiver "$T/p-late-receiver" 2 $MPIRUN $MPIRUN_FLAGS
same_par "call sites" "$T/p-stacks" 3 $MPIRUN $MPIRUN_FLAGS
same_par "without steps" "$T/p-nosteps" 3 $MPIRUN $MPIRUN_FLAGS
if [ -e "$T/p-cpu-contention" ]; then
	same_par cpu-contention "$T/p-cpu-contention" 3 $MPIRUN $MPIRUN_FLAGS
else
	skips 1 "no cpu-contention profile (it needs BPF, as root)"
fi
if [ -n "${MPIRUN_MPICH:-}" ] && [ "$MPIRUN_MPICH" != no ]; then
	same_par "late-coll (MPICH's mpirun)" "$T/p-late-coll" 2 "$MPIRUN_MPICH"
else
	skips 1 "no mpirun.mpich (configure found none)"
fi

# The database too: its diag_ tables as the serial analyzer's.
$MPIRUN $MPIRUN_FLAGS -np 3 "$ANALYZE" "$T/p-late-coll" --parallel --diagnose -f sqlite \
	-o "$T/par.db" >/dev/null 2>"$T/par.err"
_rc=$?
for _t in diag_step_parts diag_steps diag_critical_path diag_wait_states diag_findings; do
	"$PY" -c 'import sqlite3, sys
def rows(path):
    db = sqlite3.connect(path)
    cols = [c[1] for c in db.execute("PRAGMA table_info(%s)" % sys.argv[3])]
    keep = [c for c in cols if c != "id"]
    # names by their text: the string ids of two databases differ
    out = []
    for r in db.execute("SELECT %s FROM %s" % (",".join(keep), sys.argv[3])):
        out.append(tuple(db.execute("SELECT string FROM strings WHERE id = ?", (v,)).fetchone()
                         if c.endswith("_id") and not c.startswith("process") and
                         not c.endswith("process_id") and v is not None else v
                         for c, v in zip(keep, r)))
    return sorted(out, key=repr)
a, b = rows(sys.argv[1]), rows(sys.argv[2])
assert a and a == b, (sys.argv[3], len(a), len(b), a[:2], b[:2])' "$T/d.db" "$T/par.db" "$_t" ||
		_rc=1
done
ok $_rc "3 analysis processes write the serial database's diag_ tables"
finish
