"""bpf-loader.py — the checks of func/t-bpf-loader.sh on the events that apps/bpf-follow
printed (one per line, see bpf-follow.c), each check given the events file."""
import collections

from checklib import fail, main

CREATED, EXEC, EXIT, RENAMED = 2, 3, 4, 5
RUNNING, RUNNABLE, SLEEPING, BLOCKED, STOPPED, EXITED = 1, 2, 3, 4, 5, 6


class Run:
    """The events of one run: pids, span, lost, and the task, sched and sample records."""

    def __init__(self, path):
        ev = collections.defaultdict(list)
        for line in open(path):
            w = line.split()
            if w[0] == "pids":
                self.parent, self.child, self.other = map(int, w[1:])
            elif w[0] == "span":
                self.t0, self.t1, self.lost = map(int, w[1:])
            else:
                ev[w[0]].append([int(x) if x.isdigit() else x for x in w[1:]])
        self.task, self.sched, self.sample = ev["task"], ev["sched"], ev["sample"]


def child_samples(path):
    r = Run(path)
    mine = [s for s in r.sample if s[1] == r.child and s[2] == r.child]
    if len(mine) < 20:
        fail("%d samples of the child at 199 Hz over 300 ms" % len(mine))
    if any(not r.t0 <= s[0] <= r.t1 for s in r.sample):
        fail("a sample outside [%d, %d]" % (r.t0, r.t1))
    spin = [s for s in mine if s[7] == "tprof_test_spin"]
    if len(spin) * 2 < len(mine):
        fail("%d of %d samples in tprof_test_spin: %s" % (len(spin), len(mine), mine[:5]))
    if not any(s[8] == "tprof_test_child" for s in spin):
        fail("no caller tprof_test_child in %s" % spin[:5])
    # In kernel mode, a thread that has left its memory behind (exiting) has no user stack.
    if (any(s[6] < 1 for s in mine if not s[4] & 1) or
            any(s[4] & 1 and s[5] < 1 for s in r.sample)):
        fail("a sample in user mode without user frames, or in kernel mode without kernel ones")


def only_followed(path):
    r = Run(path)
    pids = {s[1] for s in r.sched + r.sample} | {t[2] for t in r.task}
    bad = pids & {r.parent, r.other}
    if bad or r.child not in pids:
        fail("pids seen %s; parent %d, sibling %d, child %d" %
             (pids, r.parent, r.other, r.child))


def sleeping_thread(path):
    r = Run(path)
    thr = [t for t in r.task if t[2] == r.child and t[3] != r.child and t[1] == CREATED]
    if len(thr) != 1 or thr[0][4] != 0:
        fail("thread creations %s" % thr)
    tid = thr[0][3]
    states = [s[4] for s in r.sched if s[2] == tid]
    if SLEEPING not in states or RUNNING not in states or states[-1] != EXITED:
        fail("states of the thread %s" % states)
    if not any(t[1] == EXIT and t[3] == tid for t in r.task):
        fail("no exit of the thread")


def child_life(path):
    r = Run(path)
    states = [s[4] for s in r.sched if s[2] == r.child]
    if RUNNING not in states or STOPPED not in states or states[-1] != EXITED:
        fail("states of the child %s" % states)
    if not any(t[1] == RENAMED and t[3] == r.child and t[5] == "tp-renamed" for t in r.task):
        fail("no rename to tp-renamed in %s" % r.task)
    if not any(t[1] == EXIT and t[2] == r.child and t[3] == r.child for t in r.task):
        fail("no exit of the child in %s" % r.task)


def grandchild(path):
    r = Run(path)
    gc = [t for t in r.task if t[1] == CREATED and t[2] != r.child]
    if len(gc) != 1 or gc[0][2] != gc[0][3] or gc[0][4] != r.child:
        fail("process creations %s" % gc)
    g = gc[0][2]
    whats = [(t[1], t[5]) for t in r.task if t[2] == g]
    if (EXEC, "true") not in whats or whats[-1][0] != EXIT:
        fail("the grandchild %s" % whats)


def switches(path):
    """A runnable record is a preemption or a wakeup (of a thread that may still be on its
    CPU): only the other states say for sure that it left.  A thread is followed from when it
    is forked or its process is found: on a busy machine it may be on its CPU by then already,
    so a thread's first record may be its leaving."""
    r = Run(path)
    ran, running = {}, {}
    for s in r.sched:
        tid, cpu, st = s[2], s[3], s[4]
        if st == RUNNING:
            if running.get(tid):
                fail("thread %d runs on CPU %d while on %d" % (tid, cpu, ran[tid]))
            running[tid], ran[tid] = True, cpu
            continue
        if tid not in ran:
            ran[tid] = cpu
        if st != RUNNABLE and ran.get(tid) != cpu:
            fail("thread %d leaves CPU %d in state %d, ran on %s" % (tid, cpu, st, ran.get(tid)))
        if st != RUNNABLE or ran.get(tid) == cpu:
            running[tid] = False
    if len(r.sched) < 10:
        fail("%d switches" % len(r.sched))


def none_lost(path):
    r = Run(path)
    if r.lost:
        fail("%d lost" % r.lost)


main(globals())
