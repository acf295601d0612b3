"""fork-exec.py — the checks of func/t-fork-exec.sh on the Chrome traces tprof-analyze wrote
of apps/forkexec's runs (fork, fork-exec, exec, exec-noenv, threads), given with K (the
ranges each image opens) and the pids the program printed."""
import collections

from checklib import fail, main
from chrome_trace import events, load, procs


def _by_pid_and_name(d, p):
    """The events of trace d counted by (real pid, name), p its processes (procs)."""
    return collections.Counter((p[e["pid"]][1], e["name"]) for e in events(d))


def fork(trace, k, parent, child):
    """fork: two processes; the parent's 2K ranges in the parent, the child's K in the child."""
    d = load(trace)
    k, parent, child = int(k), int(parent), int(child)
    p = procs(d)
    if sorted(v[1] for v in p.values()) != sorted([parent, child]):
        fail("processes %s, want pids %d and %d" % (p, parent, child))
    c = _by_pid_and_name(d, p)
    want = {(parent, "parent"): 2 * k, (child, "child"): k}
    if dict(c) != want:
        fail("events by (pid, name): %s, want %s" % (dict(c), want))


def fork_exec(trace, k, parent, child):
    """fork+exec: the exec'd child's K ranges are in a process of the child's pid."""
    d = load(trace)
    k, parent, child = int(k), int(parent), int(child)
    p = procs(d)
    c = _by_pid_and_name(d, p)
    want = {(parent, "parent"): k, (child, "leaf"): k}
    if dict(c) != want:
        fail("events by (pid, name): %s, want %s (processes %s)" % (dict(c), want, p))


def exec_self(trace, k, pid):
    """exec of itself: one pid, two process images, K ranges before the exec in one image, K
    after it in the other."""
    d = load(trace)
    k, pid = int(k), int(pid)
    p = procs(d)
    if len(p) != 2 or any(v[1] != pid for v in p.values()):
        fail("processes %s, want two images of pid %d" % (p, pid))
    c = collections.Counter((e["pid"], e["name"]) for e in events(d))
    names = collections.Counter()
    for (_, n), v in c.items():
        names[n] += v
    if names != {"before-exec": k, "leaf": k} or len(c) != 2 or len({i for (i, _) in c}) != 2:
        fail("events by (image, name): %s" % dict(c))


def threads(trace):
    """200 short-lived threads: all 2000 ranges kept, each thread on a named track of its
    own."""
    d = load(trace)
    ev = events(d)
    c = collections.Counter(e["name"] for e in ev if e["ph"] == "X")
    bad = {n: c[n] for n in ["short %d" % i for i in range(200)] if c[n] != 10}
    if len(ev) != 2000 or len(c) != 200 or bad:
        fail("%d events, %d names; wrong counts: %s" % (len(ev), len(c), bad))
    tid_of = collections.defaultdict(set)
    for e in ev:
        tid_of[e["name"]].add(e["tid"])
    if any(len(t) != 1 for t in tid_of.values()):
        fail("ranges of one thread on several tracks: %s" %
             {n: t for n, t in tid_of.items() if len(t) != 1})
    tids = {next(iter(t)) for t in tid_of.values()}
    named = {e["tid"] for e in d["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    if len(tids) != 200 or not tids <= named:
        fail("%d tracks (want 200); %d of them named" % (len(tids), len(tids & named)))


main(globals())
