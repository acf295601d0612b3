# sample-env-check.py DUMP MIB — checks the system images of "sysload all MIB MS" run with the
# recorder alone and TPROF_SAMPLE=all (dump-records output in DUMP): each process samples
# itself, so there are three images, the parent's, the forked child's before its exec and the
# child's after it, each following its own process only; and a fourth, the short-lived
# child's, when its image began before the child ended (with _exit, 150 ms after its fork;
# the image begins 20 ms after it, unless the machine is too busy to run the sampler).  Prints one line per check: "PASS
# what" or "FAIL what: why"; the test turns them into TAP.
import collections, json, sys

SCHED = {1: "running", 2: "runnable", 3: "sleeping", 4: "blocked", 5: "stopped", 6: "exited"}
path, mib = sys.argv[1], int(sys.argv[2])
recs = [json.loads(l) for l in open(path, encoding="utf-8")]
system = {r["image"] for r in recs
          if r["stream"] == 0 and r["kind"] == "prop" and r["name"] == "role" and
          r["value"] == "system"}
images = {}
for i in sorted(system):
    rs = [r for r in recs if r["image"] == i]
    props = collections.defaultdict(list)
    for r in rs:
        if r["kind"] == "prop":
            props[r["name"]].append(r["value"])
    images[i] = {"recs": rs, "props": {k: v[0] for k, v in props.items()},
                 "args": props.get("arg", [])}


def check(what, cond, why=""):
    print(("PASS %s" % what) if cond else ("FAIL %s: %s" % (what, why)))


def kinds(im, kind):
    return [r for r in im["recs"] if r["kind"] == kind]


def ctr(im, what, of):
    return sorted((r["t0"], r["arg"]) for r in kinds(im, "sysctr")
                  if r["flags"] == what and r["t1"] == of)


def states(im, tid):
    return [SCHED.get(r["flags"], r["flags"]) for r in kinds(im, "sched") if r["t1"] == tid]


def tid_named(im, name):
    for t in kinds(im, "task"):
        if t["name"] == name:
            return t["task"]["tid"]
    return None


summary = {i: (im["props"].get("pid"), im["args"][1:2]) for i, im in images.items()}
execd = [im for im in images.values() if im["args"][1:2] == ["threads"]]
C = execd[0]["props"]["pid"] if len(execd) == 1 else None
parent = [im for im in images.values() if im["args"][1:2] == ["all"] and
          any(j["props"].get("ppid") == im["props"].get("pid") for j in images.values())]
P = parent[0]["props"]["pid"] if len(parent) == 1 else None
short = [im for im in images.values() if im["args"][1:2] == ["all"] and P and C and
         im["props"].get("ppid") == P and im["props"].get("pid") != C]
check("three system images (four with the short-lived child's), each of sampler proc, "
      "cpu,sched,mem, clock 2, target its own pid",
      len(images) == 3 + len(short) and len(short) <= 1 and all(
          im["props"].get("sampler") == "proc" and im["props"].get("sample") == "cpu,sched,mem"
          and im["props"].get("clock") == 2 and im["props"].get("target") == im["props"]["pid"]
          for im in images.values()), "images (pid, arg 1) %s" % summary)

forked = [im for im in images.values() if im["args"][1:2] == ["all"] and
          im["props"].get("ppid") == P and P and im["props"].get("pid") == C]
C = forked[0]["props"]["pid"] if len(forked) == 1 else None
check("the parent's image, the forked child's (args of the parent, ppid = parent) and the "
      "exec'ed child's (args threads, same pid)",
      P and C and C != P and len(execd) == 1 and execd[0]["props"]["pid"] == C and
      execd[0]["props"].get("ppid") == P, "images (pid, arg 1) %s" % summary)
if not (P and C and execd):
    sys.exit(0)
par, fk, ex = parent[0], forked[0], execd[0]


def own_only(im, pid):
    for r in im["recs"]:
        if r["kind"] == "task" and r["task"]["pid"] != pid:
            return False
        if r["kind"] == "sched" and r["arg"] & 0xffffffff != pid:
            return False
    return True


check("each image follows its own process alone (every TASK and SCHED names its pid)",
      own_only(par, P) and own_only(fk, C) and own_only(ex, C) and
      all(own_only(im, im["props"]["pid"]) for im in short))
check("no image follows the sampler's own thread (tprof-sample)",
      not any(t["name"] == "tprof-sample" for im in images.values() for t in kinds(im, "task")))
check("the parent's image and the forked child's follow one thread each, TASK seen",
      [(t["task"]["tid"], t["flags"]) for t in kinds(par, "task")] == [(P, 1)] and
      [(t["task"]["tid"], t["flags"]) for t in kinds(fk, "task")] == [(C, 1)],
      "parent %s forked %s" % ([t["task"] for t in kinds(par, "task")],
                               [t["task"] for t in kinds(fk, "task")]))
order = all(a["t0"] <= b["t0"] for im in images.values()
            for s in set(r["stream"] for r in im["recs"])
            for a, b in zip([r for r in im["recs"] if r["stream"] == s],
                            [r for r in im["recs"] if r["stream"] == s][1:]))
check("every stream of every image in time order", order)
check("every image ends with END, but the short-lived child's (it ended with _exit)",
      all(([r["kind"] for r in im["recs"] if r["stream"] == 0][-1:] == ["end"]) ==
          (im not in short) for im in images.values()))
fk_end = max(r["t0"] for r in fk["recs"])
ex_start = min(r["t0"] for r in ex["recs"] if r["kind"] != "clock")
check("the forked child's image ends before the exec'ed child's begins", fk_end <= ex_start,
      "%d > %d" % (fk_end, ex_start))

busy, sleeper = tid_named(ex, "busy"), tid_named(ex, "sleeper")
check("the exec'ed child: threads busy and sleeper, each with TASK records up to its exit",
      busy and sleeper and all(any(t["flags"] == 4 and t["task"]["tid"] == x
                                   for t in kinds(ex, "task")) for x in (busy, sleeper)),
      "tasks %s" % [(t["name"], t["flags"]) for t in kinds(ex, "task")])
check("SCHED: busy is running, then exited", "running" in states(ex, busy) and
      states(ex, busy)[-1:] == ["exited"], "busy %s" % states(ex, busy))
check("SCHED: sleeper is sleeping, then exited, and never blocked",
      "sleeping" in states(ex, sleeper) and states(ex, sleeper)[-1:] == ["exited"] and
      "blocked" not in states(ex, sleeper), "sleeper %s" % states(ex, sleeper))
check("SCHED: the parent's main thread sleeps (it waits for the child)",
      "sleeping" in states(par, P), "parent %s" % states(par, P))


def cpu_ms(im, tid):
    v = [x for _, x in ctr(im, 5, tid)]
    return (max(v) - min(v)) / 1e6 if v else None


b, s = cpu_ms(ex, busy), cpu_ms(ex, sleeper)
check("CPU_TIME rises on busy (>= 400 ms; it spins for 600 ms)", b is not None and b >= 400,
      "busy %s ms" % b)
check("CPU_TIME stays flat on sleeper (<= 30 ms)", s is not None and s <= 30,
      "sleeper %s ms" % s)

# The parent touches MIB MiB 300 ms after its start.  The base is its RSS just before the touch
# as it read it itself (the file named by the 3rd argument), or else the RSS of its image's
# first 250 ms (its image begins 20 ms after the start).
rss = ctr(par, 3, P)
t_first = rss[0][0] if rss else 0
base = [v for t, v in rss if t <= t_first + 230000000]
if len(sys.argv) > 3:
    with open(sys.argv[3]) as f:
        base = [int(f.read()) * 1024]
rise = (max(v for _, v in rss) - base[-1]) / 2**20 if rss and base else 0
check("RSS of the parent rises by %d MiB within 5 %%" % mib, abs(rise - mib) <= 0.05 * mib,
      "rose %.2f MiB over %d samples" % (rise, len(rss)))
check("RSS of the exec'ed child is sampled", bool(ctr(ex, 3, C)))
check("page faults of the parent's main thread rise",
      max([v for _, v in ctr(par, 4, P)] or [0]) > 0)
ncpu = par["props"].get("ncpu", 0)
check("each image samples host memory and a busy share for every CPU",
      all(any(r["flags"] == 2 and r["arg"] > 0 for r in kinds(im, "sysctr")) and
          sorted({r["t1"] for r in kinds(im, "sysctr") if r["flags"] == 1}) ==
          list(range(ncpu)) for im in (par, ex)))
