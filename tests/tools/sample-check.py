# sample-check.py DUMP MIB SAMPLER — checks the system image of "sysload all MIB MS" run under
# tprof-inspect --sample all (dump-records output in DUMP; SAMPLER: proc or bpf).  Prints one
# line per check: "PASS what" or "FAIL what: why"; the test turns them into TAP.
import collections, json, sys

SCHED = {1: "running", 2: "runnable", 3: "sleeping", 4: "blocked", 5: "stopped", 6: "exited"}
path, mib, sampler = sys.argv[1], int(sys.argv[2]), sys.argv[3]
recs = [json.loads(l) for l in open(path, encoding="utf-8")]
sysrecs = [r for r in recs if any(p["kind"] == "prop" and p["name"] == "role" and
                                  p["value"] == "system" and p["image"] == r["image"]
                                  for p in recs if p["stream"] == 0 and p["kind"] == "prop")]
props = {r["name"]: r["value"] for r in sysrecs if r["kind"] == "prop"}
tasks = [r for r in sysrecs if r["kind"] == "task"]
ctr = collections.defaultdict(list)        # (counter, of) -> [(t0, value)]
for r in sysrecs:
    if r["kind"] == "sysctr":
        ctr[(r["flags"], r["t1"])].append((r["t0"], r["arg"]))
sched = collections.defaultdict(list)      # tid -> [state]
for r in sysrecs:
    if r["kind"] == "sched":
        sched[r["t1"]].append(SCHED.get(r["flags"], r["flags"]))


def check(what, cond, why=""):
    print(("PASS %s" % what) if cond else ("FAIL %s: %s" % (what, why)))


def tid_named(name, pid=None):
    for t in tasks:
        if t["name"] == name and (pid is None or t["task"]["pid"] == pid):
            return t["task"]["tid"], t["task"]["pid"]
    return None, None


check("one system image, role system, sampler %s" % sampler,
      props.get("sampler") == sampler and props.get("sample") == "cpu,sched,mem" and
      props.get("clock") == 2, "props %s" % props)
target = props.get("target")
check("PROPs sample_hz, counter_hz, ncpu, mem_total, kernel, target",
      props.get("sample_hz", 0) > 0 and 0 < props.get("counter_hz", 0) <= 100 and
      props.get("ncpu", 0) > 0 and props.get("mem_total", 0) > 0 and props.get("kernel") and
      target, "props %s" % props)
order = all(a["t0"] <= b["t0"] for s in set(r["stream"] for r in sysrecs)
            for a, b in zip([r for r in sysrecs if r["stream"] == s],
                            [r for r in sysrecs if r["stream"] == s][1:]))
check("every stream in time order", order)
check("the image ends with END",
      [r["kind"] for r in sysrecs if r["stream"] == 0][-1:] == ["end"])

# The target: seen before its exec, then exec'ed (gen 1).
seen = [t for t in tasks if t["flags"] == 1 and t["task"]["pid"] == target]
execs = [t for t in tasks if t["flags"] == 3 and t["task"]["pid"] == target]
check("the target: TASK seen, then exec (gen 1, exe sysload)",
      seen and execs and execs[0]["task"]["gen"] == 1 and
      (execs[0]["task"]["exe"] or "").endswith("/sysload"), "seen %s exec %s" % (seen, execs))

# The child made by fork + exec, with its threads.
kids = [t for t in tasks if t["flags"] == 2 and t["task"]["ppid"] == target and
        t["task"]["pid"] == t["task"]["tid"]]
child = kids[0]["task"]["pid"] if kids else None
cexec = [t for t in tasks if t["flags"] == 3 and t["task"]["pid"] == child]
check("the forked child: TASK created (ppid = target), then exec",
      child and cexec, "kids %s exec %s" % (kids, cexec))
busy, _ = tid_named("busy", child)
sleeper, _ = tid_named("sleeper", child)
check("the child's threads busy and sleeper: TASK created and exit",
      busy and sleeper and all(any(t["flags"] == 4 and t["task"]["tid"] == x for t in tasks)
                               for x in (busy, sleeper)), "busy %s sleeper %s" % (busy, sleeper))
zkids = [t["task"]["pid"] for t in kids if t["task"]["pid"] != child]
starts = {}
for t in tasks:
    if t["flags"] in (1, 2):
        starts[t["task"]["tid"]] = starts.get(t["task"]["tid"], 0) + 1
check("the child that stays a zombie for 300 ms: followed once, exits once; no task twice",
      len(zkids) == 1 and
      sum(1 for t in tasks if t["flags"] == 4 and t["task"]["tid"] == zkids[0]) == 1 and
      all(n == 1 for n in starts.values()),
      "other children %s, tasks begun twice %s" %
      (zkids, [k for k, n in starts.items() if n > 1]))
check("the target and the child exit (TASK exit)",
      all(any(t["flags"] == 4 and t["task"]["tid"] == x for t in tasks) for x in (target, child)))

# Thread states.
check("SCHED: busy is running, then exited",
      busy in sched and "running" in sched[busy] and sched[busy][-1] == "exited",
      "busy %s" % sched.get(busy))
check("SCHED: sleeper is sleeping, then exited, and never blocked",
      sleeper in sched and "sleeping" in sched[sleeper] and sched[sleeper][-1] == "exited" and
      "blocked" not in sched[sleeper], "sleeper %s" % sched.get(sleeper))

# CPU time (the /proc sampler's stand-in for CPU samples).
def cpu_ms(tid):
    v = [x for _, x in ctr.get((5, tid), [])]
    return (max(v) - min(v)) / 1e6 if v else None
if sampler == "proc":
    b, s = cpu_ms(busy), cpu_ms(sleeper)
    check("CPU_TIME rises on busy (>= 400 ms; it spins for 600 ms)", b is not None and b >= 400,
          "busy %s ms" % b)
    check("CPU_TIME stays flat on sleeper (<= 30 ms)", s is not None and s <= 30,
          "sleeper %s ms" % s)

# Memory.
# sysload maps and touches the memory 300 ms after its exec.  The base is its RSS just before
# the touch as it read it itself (the file named by the 4th argument), or else the RSS sampled
# 250 ms after its exec, when the program and its preloaded libraries have usually settled (on
# a loaded machine, a sanitizer's runtime may still be growing then).
rss = sorted(ctr.get((3, target), []))
t_exec = execs[0]["t0"] if execs else 0
after = [v for t, v in rss if execs and t >= t_exec]
base = [v for t, v in rss if execs and t <= t_exec + 250000000]
if len(sys.argv) > 4:
    with open(sys.argv[4]) as f:
        base = [int(f.read()) * 1024]
rise = (max(after) - base[-1]) / 2**20 if after and base else 0
check("RSS of the target rises by %d MiB within 5 %%" % mib,
      abs(rise - mib) <= 0.05 * mib, "rose %.2f MiB over %d samples: %s" % (
          rise, len(after), " ".join("%.1f" % (v / 2**20) for v in after[:40])))
check("RSS of the child is sampled", bool(ctr.get((3, child))))
check("page faults of the target's main thread rise",
      max([v for _, v in ctr.get((4, target), [(0, 0)])]) > 0)
check("host memory in use is sampled", any(k[0] == 2 and v and v[0][1] > 0 for k, v in ctr.items()))
ncpu = props.get("ncpu", 0)
cpus = sorted(k[1] for k in ctr if k[0] == 1)
check("a busy share for every CPU, each at most 1,000,000 ppm",
      cpus == list(range(ncpu)) and all(0 <= x <= 1000000 for k, v in ctr.items() if k[0] == 1
                                         for _, x in v), "cpus %s of %d" % (cpus, ncpu))
