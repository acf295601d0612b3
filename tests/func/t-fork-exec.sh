#!/bin/sh
# fork, fork+exec, exec of itself, exec with an environment stripped of TPROF_* and
# LD_PRELOAD, and 200 short-lived threads: every process image records to its own files,
# and every event lands in the right process and on its own thread's track.
. "$(dirname "$0")/lib.sh"
K=300
plan 14

# images DIR MODE: runs forkexec MODE under tprof-inspect into DIR and writes DIR.json.
images() {
	"$INSPECT" -o "$1" -- "$APPS/forkexec" "$2" "$K" >"$1.out" 2>"$1.err" &&
		"$ANALYZE" "$1" --format chrome -o "$1.json" 2>"$1.analyze.err"
}

# fork: parent and child each record, to files of their own.
images "$T/fork" fork
ok $? "fork: the program and the analyzer succeed"
ppid=$(sed -n 's/^parent pid=\([0-9]*\) child=\([0-9]*\) status=0$/\1/p' "$T/fork.out")
cpid=$(sed -n 's/^parent pid=\([0-9]*\) child=\([0-9]*\) status=0$/\2/p' "$T/fork.out")
ls "$T/fork" >"$T/fork.files"
[ -n "$ppid" ] && [ -n "$cpid" ] &&
	[ "$(grep -c "\.$ppid\.[0-9a-f]\{8\}\.tpf\$" "$T/fork.files")" -eq 1 ] &&
	[ "$(grep -c "\.$cpid\.[0-9a-f]\{8\}\.tpf\$" "$T/fork.files")" -eq 1 ] &&
	[ "$(grep -c '\.tpf$' "$T/fork.files")" -eq 2 ]
ok $? "fork: one trace file for the parent ($ppid) and one for the child ($cpid)"
pyc '
d = load(sys.argv[1]); k = int(sys.argv[2]); parent = int(sys.argv[3]); child = int(sys.argv[4])
p = procs(d)
if sorted(v[1] for v in p.values()) != sorted([parent, child]):
    sys.exit("processes %s, want pids %d and %d" % (p, parent, child))
c = collections.Counter((p[e["pid"]][1], e["name"]) for e in events(d))
want = {(parent, "parent"): 2 * k, (child, "child"): k}
if dict(c) != want:
    sys.exit("events by (pid, name): %s, want %s" % (dict(c), want))
' "$T/fork.json" "$K" "${ppid:-0}" "${cpid:-0}"
ok $? "fork: two processes; the parent's $((2 * K)) ranges in the parent, the child's $K in the child"

# fork, then exec in the child.
images "$T/fexec" fork-exec
ok $? "fork+exec: the program and the analyzer succeed"
ppid=$(sed -n 's/^parent pid=\([0-9]*\) child=\([0-9]*\) status=0$/\1/p' "$T/fexec.out")
cpid=$(sed -n 's/^parent pid=\([0-9]*\) child=\([0-9]*\) status=0$/\2/p' "$T/fexec.out")
grep -qx "leaf pid=$cpid" "$T/fexec.out"
ok $? "fork+exec: the exec'd child ran (its output is there)"
pyc '
d = load(sys.argv[1]); k = int(sys.argv[2]); parent = int(sys.argv[3]); child = int(sys.argv[4])
p = procs(d)
c = collections.Counter((p[e["pid"]][1], e["name"]) for e in events(d))
want = {(parent, "parent"): k, (child, "leaf"): k}
if dict(c) != want:
    sys.exit("events by (pid, name): %s, want %s (processes %s)" % (dict(c), want, p))
' "$T/fexec.json" "$K" "${ppid:-0}" "${cpid:-0}"
ok $? "fork+exec: the exec'd child's $K ranges are in a process of the child's pid"

# exec of itself: one pid, two process images, each with its own events.
for mode in exec exec-noenv; do
	images "$T/$mode" "$mode"
	ok $? "$mode: the program and the analyzer succeed"
	pid=$(sed -n 's/^before-exec pid=\([0-9]*\)$/\1/p' "$T/$mode.out")
	[ -n "$pid" ] && grep -qx "leaf pid=$pid" "$T/$mode.out" &&
		[ "$(ls "$T/$mode" | grep -c "\.$pid\.[0-9a-f]\{8\}\.tpf\$")" -eq 2 ]
	ok $? "$mode: the new image ran in the same process and wrote a trace file of its own"
	pyc '
d = load(sys.argv[1]); k = int(sys.argv[2]); pid = int(sys.argv[3])
p = procs(d)
if len(p) != 2 or any(v[1] != pid for v in p.values()):
    sys.exit("processes %s, want two images of pid %d" % (p, pid))
c = collections.Counter((e["pid"], e["name"]) for e in events(d))
names = collections.Counter()
for (_, n), v in c.items():
    names[n] += v
if names != {"before-exec": k, "leaf": k} or len(c) != 2 or len({i for (i, _) in c}) != 2:
    sys.exit("events by (image, name): %s" % dict(c))
' "$T/$mode.json" "$K" "${pid:-0}"
	ok $? "$mode: $K ranges before the exec in one image, $K after it in the other"
done

# 200 short-lived threads, 20 at a time, 10 ranges each.
"$INSPECT" -o "$T/thr" -- "$APPS/forkexec" threads 200 >"$T/thr.out" 2>"$T/thr.err" &&
	grep -qx 'threads=200' "$T/thr.out" &&
	"$ANALYZE" "$T/thr" --format chrome -o "$T/thr.json" 2>"$T/thr.analyze.err"
ok $? "200 threads: the program and the analyzer succeed"
pyc '
d = load(sys.argv[1])
ev = events(d)
c = collections.Counter(e["name"] for e in ev if e["ph"] == "X")
bad = {n: c[n] for n in ["short %d" % i for i in range(200)] if c[n] != 10}
if len(ev) != 2000 or len(c) != 200 or bad:
    sys.exit("%d events, %d names; wrong counts: %s" % (len(ev), len(c), bad))
tid_of = collections.defaultdict(set)
for e in ev:
    tid_of[e["name"]].add(e["tid"])
if any(len(t) != 1 for t in tid_of.values()):
    sys.exit("ranges of one thread on several tracks: %s" % {n: t for n, t in tid_of.items() if len(t) != 1})
tids = {next(iter(t)) for t in tid_of.values()}
named = {e["tid"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
if len(tids) != 200 or not tids <= named:
    sys.exit("%d tracks (want 200); %d of them named" % (len(tids), len(tids & named)))
' "$T/thr.json"
ok $? "200 threads: all 2000 ranges kept, each thread on a named track of its own"
finish
