#!/bin/sh
# The BPF loader (ebpf/) on a real kernel: a followed child's CPU samples with user stacks,
# its threads' scheduling states, the lifecycle of its threads and of a grandchild, nothing
# of an unfollowed sibling, nothing lost; and the reason it gives when not permitted.
. "$(dirname "$0")/lib.sh"
PROG="$top_builddir/tests/apps/bpf-follow"
[ "${BPF_STATUS:-}" = yes ] ||
	skip_all "tprof was built without BPF: configure said ${BPF_STATUS:-nothing}"
[ "$(id -u)" -eq 0 ] ||
	skip_all "not root: loading BPF programs needs root (or CAP_BPF and CAP_PERFMON)"
plan 10

"$PROG" run 199 >"$T/events" 2>"$T/stderr"
ok $? "the loader opens, follows the child and closes"
[ -s "$T/stderr" ] && diag "stderr:" "$(head -20 "$T/stderr")"
grep -q '^pids ' "$T/events" || diag "$(head -3 "$T/events")"

# check_py DESCRIPTION CODE: runs CODE after the events are parsed (see bpf-follow.c).
PRELUDE='
import sys, collections
ev = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if w[0] == "pids":
        parent, child, other = map(int, w[1:])
    elif w[0] == "span":
        t0, t1, lost = map(int, w[1:])
    else:
        ev[w[0]].append([int(x) if x.isdigit() else x for x in w[1:]])
task, sched, sample = ev["task"], ev["sched"], ev["sample"]
CREATED, EXEC, EXIT, RENAMED = 2, 3, 4, 5
RUNNING, RUNNABLE, SLEEPING, BLOCKED, STOPPED, EXITED = 1, 2, 3, 4, 5, 6
'
check_py() { check "$1" py "$PRELUDE$2" "$T/events"; }

check_py "CPU samples of the spinning child, in the run's time span, with user frames" '
mine = [s for s in sample if s[1] == child and s[2] == child]
if len(mine) < 20:
    sys.exit("%d samples of the child at 199 Hz over 300 ms" % len(mine))
if any(not t0 <= s[0] <= t1 for s in sample):
    sys.exit("a sample outside [%d, %d]" % (t0, t1))
spin = [s for s in mine if s[7] == "tprof_test_spin"]
if len(spin) * 2 < len(mine):
    sys.exit("%d of %d samples in tprof_test_spin: %s" % (len(spin), len(mine), mine[:5]))
if not any(s[8] == "tprof_test_child" for s in spin):
    sys.exit("no caller tprof_test_child in %s" % spin[:5])
# In kernel mode, a thread that has left its memory behind (exiting) has no user stack.
if any(s[6] < 1 for s in mine if not s[4] & 1) or any(s[4] & 1 and s[5] < 1 for s in sample):
    sys.exit("a sample in user mode without user frames, or in kernel mode without kernel ones")'

check_py "nothing of the unfollowed sibling or of the parent" '
pids = {r[1] for r in sched + sample} | {r[2] for r in task}
bad = pids & {parent, other}
if bad or child not in pids:
    sys.exit("pids seen %s; parent %d, sibling %d, child %d" % (pids, parent, other, child))'

check_py "the sleeping thread: created, sleeping, exited" '
thr = [t for t in task if t[2] == child and t[3] != child and t[1] == CREATED]
if len(thr) != 1 or thr[0][4] != 0:
    sys.exit("thread creations %s" % thr)
tid = thr[0][3]
states = [s[4] for s in sched if s[2] == tid]
if SLEEPING not in states or RUNNING not in states or states[-1] != EXITED:
    sys.exit("states of the thread %s" % states)
if not any(t[1] == EXIT and t[3] == tid for t in task):
    sys.exit("no exit of the thread")'

check_py "the child: running, stopped once, exited; its exit and rename as TASK records" '
states = [s[4] for s in sched if s[2] == child]
if RUNNING not in states or STOPPED not in states or states[-1] != EXITED:
    sys.exit("states of the child %s" % states)
if not any(t[1] == RENAMED and t[3] == child and t[5] == "tp-renamed" for t in task):
    sys.exit("no rename to tp-renamed in %s" % task)
if not any(t[1] == EXIT and t[2] == child and t[3] == child for t in task):
    sys.exit("no exit of the child in %s" % task)'

check_py "the grandchild: created by the child, exec of true, exit" '
gc = [t for t in task if t[1] == CREATED and t[2] != child]
if len(gc) != 1 or gc[0][2] != gc[0][3] or gc[0][4] != child:
    sys.exit("process creations %s" % gc)
g = gc[0][2]
whats = [(t[1], t[5]) for t in task if t[2] == g]
if (EXEC, "true") not in whats or whats[-1][0] != EXIT:
    sys.exit("the grandchild %s" % whats)'

# A runnable record is a preemption or a wakeup (of a thread that may still be on its CPU):
# only the other states say for sure that it left.  The child is followed once forked: on a
# busy machine it may still be on its CPU then, and its first record is its leaving it.
check_py "a thread leaves a CPU to wait only after it ran there, and runs only once at a time" '
ran, running = {}, {}
for s in sched:
    tid, cpu, st = s[2], s[3], s[4]
    if st == RUNNING:
        if running.get(tid):
            sys.exit("thread %d runs on CPU %d while on %d" % (tid, cpu, ran[tid]))
        running[tid], ran[tid] = True, cpu
        continue
    if tid == child and tid not in ran:
        ran[tid] = cpu
    if st != RUNNABLE and ran.get(tid) != cpu:
        sys.exit("thread %d leaves CPU %d in state %d, ran on %s" % (tid, cpu, st, ran.get(tid)))
    if st != RUNNABLE or ran.get(tid) == cpu:
        running[tid] = False
if len(sched) < 10:
    sys.exit("%d switches" % len(sched))'

check_py "no event lost" '
if lost:
    sys.exit("%d lost" % lost)'

# Not root: the loader declines with the reason, and its caller goes on.
setpriv --reuid=nobody --regid=nogroup --clear-groups "$PROG" open >"$T/nobody" 2>&1
rc=$?
ok "$([ "$rc" -eq 3 ] && echo 0 || echo 1)" "as nobody, the loader declines (exit $rc)"
check "as nobody, the reason says what is needed" grep -qx \
	'not permitted to load BPF programs (needs root, or CAP_BPF and CAP_PERFMON)' "$T/nobody"
[ "$rc" -eq 3 ] || diag "$(head -5 "$T/nobody")"
finish
