"""sample-bpf.py — the checks of func/t-sample-bpf.sh on what tprof-analyze made of a profile
of apps/sysratio sampled by the kernel probes: its JSON summary (the "system" section), its
Chrome trace, pftrace.py's samples of its Perfetto trace and its SQLite database, with what
the program said it did (pids, tids, CPU times, realtime nanoseconds) as arguments."""
import json
import os
import re
import sqlite3

from checklib import fail, main


def _system(path):
    """The "system" section of a JSON summary."""
    return json.load(open(path))["system"]


class _Chrome:
    """A Chrome trace: its events (ev), the chrome pids of each process id (procs) and the CPU
    samples (samples)."""

    def __init__(self, path):
        d = json.load(open(path))
        self.start_ns = d["otherData"]["trace_start_realtime_ns"]
        self.ev = d["traceEvents"]
        self.procs = {}
        for e in self.ev:
            if e["ph"] == "M" and e["name"] == "process_name":
                m = re.search(r"pid (\d+)\)", e["args"]["name"])
                if m:
                    self.procs.setdefault(int(m.group(1)), set()).add(e["pid"])
        self.samples = [e for e in self.ev if e.get("cat") == "sample"]


def cpu_ratio(path, three_cpu_us, one_cpu_us):
    """ratio_three and the C++ method share the samples as their CPU time (3:1), each share
    within 10 %."""
    s = _system(path)
    f = {r["function"]: r for r in s["cpu_functions"]["rows"]}
    three = f.get("ratio_three", {}).get("self_samples", 0)
    one = f.get("tprof::test::Ratio::one()", {}).get("self_samples", 0)
    cpu3, cpu1 = float(three_cpu_us), float(one_cpu_us)
    want = cpu1 / (cpu3 + cpu1)
    print("# ratio_three %d, tprof::test::Ratio::one() %d samples; by its CPU clock %.0f and "
          "%.0f ms" % (three, one, cpu3 / 1e3, cpu1 / 1e3))
    if three + one < 1000:
        fail("too few samples: %d" % (three + one))
    share = one / (three + one)
    if abs(share - want) > 0.1 * want:
        fail("the 1-unit function has %.1f %% of the pair, want %.1f %% within 10 %%"
             % (100 * share, 100 * want))


def callers(path):
    """ratio_loop is in the stacks of both ratio functions (by frame pointers)."""
    s = _system(path)
    f = {r["function"]: r for r in s["cpu_functions"]["rows"]}
    pair = f["ratio_three"]["self_samples"] + f["tprof::test::Ratio::one()"]["self_samples"]
    loop = f.get("ratio_loop", {}).get("total_samples", 0)
    if loop < 0.95 * pair:
        fail("ratio_loop is in %d stacks of %d" % (loop, pair))


def sleeper(path, sleeper_tid):
    """The sleeping thread is Sleeping nearly all its life, and on a CPU only while it ran."""
    s = _system(path)
    tid = int(sleeper_tid)
    cpu = [r for r in s["cpu_threads"]["rows"] if r["tid"] == tid]
    off = [r for r in s["off_cpu"]["rows"] if r["tid"] == tid]
    if len(off) != 1:
        fail("the sleeper is not in the off-CPU table once: %s" % off)
    r = off[0]
    life = r["running_ns"] + r["off_cpu_ns"]
    if r["sleeping_ns"] < 0.95 * life or life < 2e9:
        fail("sleeper: %s" % r)
    # Its samples come only from the moments it ran: starting (its name, its first line, and in
    # a sanitizer build the runtime's own thread setup) and ending.  At 999 Hz that is one
    # sample a millisecond of running, with a sample's rounding at each end, however long a
    # loaded machine makes those moments.
    samples = cpu[0]["samples"] if cpu else 0
    if samples > 2 + 1.5 * r["running_ns"] * 999 / 1e9:
        fail("the sleeper has %d CPU samples in %.2f ms of running" %
             (samples, r["running_ns"] / 1e6))


def thread_tracks(path, ratio_tid, other_tid, pid):
    """Each thread's samples are on its own track (ratio, other), in its process."""
    c = _Chrome(path)
    tids = {"ratio_three": int(ratio_tid), "tprof::test::Ratio::one()": int(ratio_tid),
            "other_spin": int(other_tid)}
    n = {k: 0 for k in tids}
    for e in c.samples:
        if e["name"] in tids:
            n[e["name"]] += 1
            if e["tid"] != tids[e["name"]] or e["pid"] not in c.procs[int(pid)]:
                fail("%s sampled on pid %s tid %s" % (e["name"], e["pid"], e["tid"]))
    if min(n.values()) < 100:
        fail("samples: %s" % n)


def children(path, forked_pid, execd_pid):
    """The forked child and the exec'ed child are sampled, on their own processes."""
    c = _Chrome(path)
    for fn, pid in (("forked_spin", int(forked_pid)), ("execd_spin", int(execd_pid))):
        mine = [e for e in c.samples if e["name"] == fn]
        if len(mine) < 200 or any(e["pid"] not in c.procs.get(pid, ()) or e["tid"] != pid
                                  for e in mine):
            fail("%s: %d samples, on %s" %
                 (fn, len(mine), sorted({(e["pid"], e["tid"]) for e in mine})[:4]))


def states(path, sleeper_tid, ratio_tid, ms, ratio_start_ns, ratio_end_ns, ratio_taken_ms):
    """State tracks: the sleeper Sleeping, and the ratio thread Running for its CPU time."""
    c = _Chrome(path)
    st = {}
    for e in c.ev:
        if e.get("cat") == "state":
            st.setdefault(e["tid"], []).append(e)

    def total(tid, lo=float("-inf"), hi=float("inf")):
        t = {}
        for e in st.get(1000000000 + tid, []):
            d = min(e["ts"] + e["dur"], hi) - max(e["ts"], lo)
            if d > 0:
                t[e["name"]] = t.get(e["name"], 0) + d
        return t
    names = {e["args"]["name"] for e in c.ev if e["ph"] == "M" and e["name"] == "thread_name"}
    sl = total(int(sleeper_tid))
    if sl.get("Sleeping", 0) < 2e6 or "sleeper state" not in names:
        fail("sleeper %s; thread names %s" % (sl, sorted(names)))
    # The ratio thread, while it spun (its own clock's marks): it spins until it has used MS ms
    # of CPU, so Running is that CPU time however long a busy machine keeps it Runnable in
    # between, plus at most what the host took from the CPUs meanwhile (steal and interrupts,
    # which its CPU clock leaves out and the scheduler's switches count).  It never waits, and
    # its states cover the whole of that time.
    t0 = c.start_ns
    lo, hi = (int(ratio_start_ns) - t0) / 1e3, (int(ratio_end_ns) - t0) / 1e3
    ra = total(int(ratio_tid), lo, hi)
    ms, taken = float(ms) * 1e3, float(ratio_taken_ms) * 1e3
    run = ra.get("Running", 0)
    waited = sum(v for k, v in ra.items() if k not in ("Running", "Runnable"))
    print("# ratio thread while it spun (%.0f ms): %s; the host took %.0f ms" %
          ((hi - lo) / 1e3, {k: round(v / 1e3) for k, v in ra.items()}, taken / 1e3))
    if (not 0.9 * ms <= run <= 1.1 * ms + taken + 20e3 or waited > 0.02 * (hi - lo) or
            sum(ra.values()) < 0.98 * (hi - lo)):
        # what tells a state track that missed a switch from a misplaced window: the samples
        # of the ratio thread that fall in its other states, and the longest of those states
        tid = 1000000000 + int(ratio_tid)
        other = sorted((e for e in st.get(tid, []) if e["name"] != "Running"),
                       key=lambda e: -e["dur"])
        inside = [e for e in other if any(s["tid"] == int(ratio_tid) and
                                          e["ts"] <= s["ts"] < e["ts"] + e["dur"]
                                          for s in c.samples)]
        print("# window %.0f..%.0f us; %d of its other states hold samples; longest: %s" %
              (lo, hi, len(inside),
               [(e["name"], e["ts"], e["dur"], e.get("args")) for e in other[:5]]))
        fail("ratio thread: %s over %.0f ms, want Running for its %.0f ms of CPU" %
             (ra, (hi - lo) / 1e3, ms / 1e3))


def counters(path, pid, touch_start_ns, touch_end_ns):
    """The RSS counter rises by the 96 MiB touched (within 5 %); busy % of every core, host
    memory."""
    c = _Chrome(path)
    pid = int(pid)
    rss = [(e["ts"], e["args"]["value"]) for e in c.ev
           if e["ph"] == "C" and e["name"] == "RSS" and e["pid"] in c.procs[pid]]
    rss.sort()
    if len(rss) < 4:
        fail("RSS samples: %d" % len(rss))
    # The rise across the touching: the level before it began to the level when it had ended
    # and before the next threads started 200 ms later (the counter is sampled every 50 ms, and
    # written when it changes).  What the process held before (a sanitizer runtime, the
    # recorder) and what its later threads add are not the touching.
    t0 = c.start_ns

    def at(ns):
        return (ns - t0) / 1e3
    start, end = at(int(touch_start_ns)), at(int(touch_end_ns))
    before = [v for t, v in rss if t <= start]
    after = [v for t, v in rss if t <= end + 150e3]
    if not before:
        fail("no RSS sample before the touching (at %.1f ms; the first at %.1f ms)" %
             (start / 1e3, rss[0][0] / 1e3))
    rise = after[-1] - before[-1]
    print("# RSS from %.1f MiB before the touching to %.1f MiB after it, rise %.1f MiB" %
          (before[-1] / 2**20, after[-1] / 2**20, rise / 2**20))
    if abs(rise - 96 * 2**20) > 0.05 * 96 * 2**20:
        fail("RSS rises by %.1f MiB, want 96 within 5 %%" % (rise / 2**20))
    cores = {e["name"] for e in c.ev if e["ph"] == "C" and re.match(r"CPU \d+ busy %", e["name"])}
    host = [e for e in c.ev if e["ph"] == "C" and e["name"] == "host memory used"]
    if len(cores) != os.cpu_count() or not host:
        fail("core counters %s, host memory samples %d" % (sorted(cores), len(host)))


def none_lost(path):
    """No sample lost, none without its thread."""
    lost = _system(path)["lost"]
    if lost["samples_lost"] or lost["unattributed"]:
        fail("lost %s" % lost)


def perfetto_samples(path, ratio_tid):
    """path: pftrace.py's samples; ratio_three's are on the ratio thread, with their callers."""
    s = json.load(open(path))
    r = [x for x in s
         if x["stack"] and x["stack"][0][0] == "ratio_three" and x["tid"] == int(ratio_tid)]
    if len(r) < 500 or any("ratio_loop" not in [f for f, m in x["stack"]] for x in r[:50]):
        fail("%d ratio_three samples" % len(r))


def sqlite_samples(db_path, chrome_path):
    """Every sample of the Chrome trace is in the database, named by its innermost function."""
    db = sqlite3.connect(db_path)
    chrome = [e for e in json.load(open(chrome_path))["traceEvents"] if e.get("cat") == "sample"]
    n = db.execute("select count(*) from samples").fetchone()[0]
    leaf = dict(db.execute("select function, count(*) from named_samples group by function"))
    if n != len(chrome) or leaf.get("ratio_three", 0) < 500:
        fail("samples %d (Chrome %d), by leaf %s" % (n, len(chrome), sorted(leaf.items())[:5]))


main(globals())
