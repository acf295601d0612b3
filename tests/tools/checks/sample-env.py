"""sample-env.py — the checks of func/t-sample-env.sh (besides tools/sample-env-check.py) on
what tools/dump-records prints of a TPROF_SAMPLE run's output directory (JSON lines, a file
or on stdin) and on tprof-analyze --summary=json of it; images prints a run's system
images for the shell."""
import collections
import json
import sys

from checklib import fail, main


def _props(rs):
    """{image: {property name: [values]}} of the records rs."""
    props = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rs:
        if r["kind"] == "prop":
            props[r["image"]][r["name"]].append(r["value"])
    return props


def images():
    """Prints the system images of dump-records output on stdin: "pid target arg1" each."""
    props = _props(map(json.loads, sys.stdin))
    for i, p in sorted(props.items()):
        if p["role"] == ["system"]:
            print(p["pid"][0], p["target"][0], (p["arg"] + ["-", "-"])[1])


def host_counters(summary, parent, child, *short):
    """CPU cores and host memory once for the host, of the system images named by pid: the
    parent's, the child's before and after its exec, and the short-lived child's (SHORT, when
    its image began before its _exit)."""
    s = json.load(open(summary))
    P, C = int(parent), int(child)
    Z = [int(z) for z in short]
    cores = s["system"]["cpu_cores"]["rows"]
    hostmem = [r for r in s["system"]["memory"]["rows"] if r["kind"] == "host"]
    cpus = sorted(r["cpu"] for r in cores)
    if cpus != list(range(len(cpus))) or len(hostmem) != 1:
        fail("host-wide counters not once per host: cores %s, host memory rows %s"
             % (cpus, hostmem))
    labels = sorted(p["label"] for p in s["header"]["process_list"] if p["system"])
    want = sorted("system (%s, pid %d)" % (hostmem[0]["host"], x) for x in [P, C, C] + Z)
    if labels != want:
        fail("system images %s, expected %s" % (labels, want))


def child_exec(summary, child, *short):
    """The child before and after its exec: two processes, each with its RSS and states."""
    s = json.load(open(summary))
    C, nshort = int(child), len(short)
    rss = sorted(r["process"] for r in s["system"]["memory"]["rows"] if r["kind"] == "process")
    mains = sorted(r["process"] for r in s["system"]["off_cpu"]["rows"] if r["tid"] == C)
    busy = [r["process"] for r in s["system"]["off_cpu"]["rows"]
            if r["thread"].startswith("busy ")]
    # the short-lived child's image has an RSS sample when the sampler ran again before its end
    if not 3 <= len(set(rss)) <= 3 + nshort or len(set(mains)) != 2 or busy[:1] != mains[1:]:
        fail("RSS of processes %s; child's main thread in processes %s; busy in %s"
             % (rss, mains, busy))


def early_exit():
    """true (exits before the image begins): its process seen, END (dump-records on stdin)."""
    rs = [json.loads(line) for line in sys.stdin]
    pid = [r["value"] for r in rs if r["kind"] == "prop" and r["name"] == "pid"][0]
    tasks = [r["task"]["pid"] for r in rs if r["kind"] == "task"]
    last = [r["kind"] for r in rs if r["stream"] == 0][-1]
    if not (tasks == [pid] and last == "end"):
        fail("tasks of %s, last record %s (process %d)" % (tasks, last, pid))


def threads_after_exec(dump):
    """A failed exec: the new image has the threads started after it."""
    rs = [json.loads(line) for line in open(dump)]
    last = max(r["image"] for r in rs)
    names = {r["name"] for r in rs if r["kind"] == "task" and r["image"] == last}
    if not {"busy", "sleeper"} <= names:
        fail("threads of the last image %s" % sorted(names))


def thread_left():
    """A process that returns from main while a thread still runs: the thread ends with it
    (TASK exit, SCHED exited at the image's last look); the main thread's end is the image's
    END (dump-records on stdin)."""
    rs = [json.loads(line) for line in sys.stdin]
    pid = [r["value"] for r in rs if r["kind"] == "prop" and r["name"] == "pid"][0]
    tasks = [(r["name"], r["flags"]) for r in rs if r["kind"] == "task"]
    tid = [r["task"]["tid"] for r in rs if r["kind"] == "task" and r["name"] == "left"]
    sched = [r["flags"] for r in rs if r["kind"] == "sched" and tid and r["t1"] == tid[0]]
    mains = [r["flags"] for r in rs if r["kind"] == "sched" and r["t1"] == pid]
    end = [r["kind"] for r in rs if r["stream"] == 0][-1]
    if not (("left", 1) in tasks and ("left", 4) in tasks and sched[-1:] == [6] and
            6 not in mains and end == "end"):
        fail("tasks %s, SCHED of left %s, of main %s, last %s" % (tasks, sched, mains, end))


def ended_image(dump, pid, mode):
    """Every end of a sampled process (apps/exits MODE): the image holds its opening, its first
    counters and its process; END only after a normal exit (return)."""
    rs = [json.loads(line) for line in open(dump)]
    pid = int(pid)
    props = _props(rs)
    system = [i for i, p in props.items() if p["role"] == ["system"]]
    if len(system) != 1:
        fail("%d system images with their opening, want 1" % len(system))
    i = system[0]
    mine = [r for r in rs if r["image"] == i]
    kinds = collections.Counter(r["kind"] for r in mine)
    tasks = {r["task"]["pid"] for r in mine if r["kind"] == "task"}
    ended = [r["kind"] for r in mine if r["stream"] == 0][-1] == "end"
    if (props[i]["pid"] != [pid] or props[i]["target"] != [pid] or not kinds["sysctr"] or
            tasks != {pid} or ended != (mode == "return")):
        fail("image of pid %s, target %s, %d counters, tasks of %s, END %s (process %d)"
             % (props[i]["pid"], props[i]["target"], kinds["sysctr"], tasks, ended, pid))


def many_images(summary):
    """Several system images of one host (tools/mk-sysimage): where they overlap in time, the
    one that covers the most draws the host-wide counters; an image after it draws its own, and
    so does another host's."""
    s = json.load(open(summary))["system"]
    cores = sorted((r["host"], r["max_pct"]) for r in s["cpu_cores"]["rows"])
    host = sorted((r["host"], r["peak_bytes"]) for r in s["memory"]["rows"] if r["kind"] == "host")
    rss = sorted(r["peak_bytes"] for r in s["memory"]["rows"] if r["kind"] == "process")
    want_cores = [("node1", 25), ("node1", 75), ("node2", 100)]
    want_host = [("node1", 2000000000), ("node1", 4000000000), ("node2", 5000000000)]
    if cores != want_cores or host != want_host or rss != [1000000, 2000000]:
        fail("cores %s host memory %s RSS %s" % (cores, host, rss))


main(globals())
