"""nrt-synth.py — the checks of func/t-nrt-synth.sh on the outputs tprof-analyze made of the
synthetic Neuron job apps/nrt-synth wrote, against the truth the program printed (JSON: its
calls, each with pid, tid, call, name, NeuronCores, start tick t0, duration and arguments):
the Chrome traces (by process, and --group-by neuroncore, instance, domain), the summary, and
what otf2-print printed of the OTF2 archive.  The NRT helpers are lib-nrt-analyze.py's."""
import collections
import importlib
import json
import re

from checklib import fail, main
from chrome_trace import events, load, ns, tracknames

nrt = importlib.import_module("lib-nrt-analyze")

SCALE = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def _truth(path):
    """The calls of the truth."""
    with open(path) as f:
        return json.load(f)["calls"]


def _t0_of(d):
    """The time of the trace start in the job's ticks: nrt_init of pid 900 started at tick
    2000."""
    for e in events(d):
        if e["ph"] == "X" and e["name"] == "nrt_init" and e["tid"] == 900:
            return 2000 - ns(e["ts"])
    fail("no nrt_init on thread 900")


def core_tracks(trace, truth):
    """Every execution and device tensor call on its process's nc N track(s), named by model or
    call, with its exact times; no span on a NeuronCore track that the job never ran."""
    d = load(trace)
    calls = _truth(truth)
    names = tracknames(d)
    real = nrt.realpid(d)
    off = _t0_of(d)
    spans = nrt.core_spans(d)
    left = list(spans)
    for c in calls:
        for nc in c["nc"]:
            want = "nc %d" % nc
            hit = [e for e in left if real[e["pid"]] == c["pid"] and
                   names[(e["pid"], e["tid"])].split(" (")[0] == want and
                   ns(e["ts"]) + off == c["t0"] and ns(e["dur"]) == c["dur"] and
                   e["name"] == (c["name"] if c["call"].startswith("nrt_execute")
                                 else c["call"]) and
                   e["args"]["call"] == c["call"] and e["args"]["nc"] == nc]
            if len(hit) != 1:
                fail("%s of pid %d (%s, t0 %d): %d spans on %s" %
                     (c["call"], c["pid"], c["name"], c["t0"], len(hit), want))
            left.remove(hit[0])
    if left:
        fail("%d spans on NeuronCore tracks the job never ran, e.g. %s" % (len(left), left[0]))


def span_args(trace, truth):
    """Executions carry model, handle, bytes, tensors, status, thread, repeat, cores; tensor
    calls bytes, tensor, placement, GB/s; failures marked."""
    d = load(trace)
    calls = _truth(truth)
    real = nrt.realpid(d)
    off = _t0_of(d)
    spans = nrt.core_spans(d)
    for c in calls:
        if c["call"].startswith("nrt_execute"):
            e = [s for s in spans if real[s["pid"]] == c["pid"] and
                 ns(s["ts"]) + off == c["t0"] and s["args"]["nc"] == c["nc"][0]][0]
            a = e["args"]
            st = "NRT_SUCCESS" if c["status"] == 0 else "NRT_EXEC_BAD_INPUT"
            if (a["model"] != c["name"] or a["input_bytes"] != c["in"] or
                    a["output_bytes"] != c["out"] or a["status"] != st or
                    a["input_tensors"] != 2 or a["output_tensors"] != 1 or
                    not a["model_handle"].startswith("0x") or
                    not a["thread"].endswith("(tid %d)" % c["tid"]) or
                    bool(a.get("failed")) != (c["status"] != 0)):
                fail("execution args %s, truth %s" % (a, c))
            if (c["call"] == "nrt_execute_repeat") != (a.get("repeat") == 3):
                fail("repeat count: %s" % a)
            if len(c["nc"]) > 1 and a.get("cores") != "%d-%d" % (c["nc"][0], c["nc"][-1]):
                fail("cores of a two-core model: %s" % a)
            if c["status"] and e.get("cname") != "terrible":
                fail("a failed execution is not coloured: %s" % e)
        elif c["nc"] and c["call"].startswith("nrt_tensor"):
            e = [s for s in spans if real[s["pid"]] == c["pid"] and
                 ns(s["ts"]) + off == c["t0"] and s["name"] == c["call"]][0]
            a = e["args"]
            if (a["bytes"] != c["bytes"] or a["tensor"] != c["name"] or
                    a["placement"] != "device" or abs(a["GB/s"] - c["bytes"] / c["dur"]) > 1e-9):
                fail("tensor call args %s, truth %s" % (a, c))


def thread_calls(trace, truth):
    """Every call stays on its thread (host-only calls only there), with a flow to each core
    it occupied."""
    d = load(trace)
    calls = _truth(truth)
    real = nrt.realpid(d)
    off = _t0_of(d)
    names = tracknames(d)
    on_threads = [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "nrt"]
    oncore = {(c["pid"], c["t0"]) for c in calls if c["nc"]}
    for e in on_threads:
        if (real[e["pid"]], ns(e["ts"]) + off) in oncore:
            continue
        if e["name"] not in ("nrt_init", "nrt_close", "nrt_allocate_tensor_set",
                             "nrt_tensor_read"):
            fail("unexpected call only on its thread: %s" % e)
        if e["name"] == "nrt_tensor_read" and e["args"].get("placement") != "host":
            fail("a device read left off its core: %s" % e)
    if any(names[(e["pid"], e["tid"])].startswith("nc ") for e in on_threads):
        fail("an API call on a NeuronCore track")
    calls_by_tid = collections.Counter(e["tid"] for e in on_threads)
    want = collections.Counter(c["tid"] for c in calls) + collections.Counter({900: 3, 950: 2})
    # on the threads: every call of the truth, plus init/set/close and the host reads
    if calls_by_tid != want:
        fail("calls by thread %s, want %s" % (calls_by_tid, want))
    s = {e["id"]: e for e in events(d) if e["ph"] == "s" and e["name"] == "nrt"}
    f = {e["id"]: e for e in events(d) if e["ph"] == "f" and e["name"] == "nrt"}
    n = sum(len(c["nc"]) for c in calls)
    if len(s) != n or set(s) != set(f):
        fail("%d flow starts, %d ends, want %d" % (len(s), len(f), n))
    for i in s:
        if (names[(s[i]["pid"], s[i]["tid"])].startswith("nc ") or
                not names[(f[i]["pid"], f[i]["tid"])].startswith("nc ") or f[i].get("bp") != "e"):
            fail("flow %s not from a thread to a core" % i)


def lanes(trace):
    """No track holds overlapping spans (a second lane 'nc 0 (2)'), NeuronCores sort after the
    threads."""
    d = load(trace)
    names = tracknames(d)
    order = nrt.sortidx(d, "thread_sort_index")
    if nrt.overlaps(d):
        fail(nrt.overlaps(d))
    second = [n for n in names.values() if n == "nc 0 (2)"]
    if len(second) != 1:
        fail("no second lane for the write overlapping mlp on nc 0: %s" %
             sorted(set(names.values())))
    for (pid, tid), n in names.items():
        if n.startswith("nc "):
            threads = [order[k] for k, m in names.items()
                       if k[0] == pid and not m.startswith("nc ")]
            if order[(pid, tid)] <= max(threads):
                fail("%s of %d sorts before a thread" % (n, pid))


def model_table(trace, summary):
    """The NRT models table equals its recomputation from the Chrome trace (executions, times,
    failures, bytes, GB/s, cores)."""
    err = nrt.model_table_errors(load(trace), open(summary).read())
    if err:
        fail(err)


def summary_tables(trace, summary, truth):
    """Busy share per NeuronCore, tensor traffic by operation and placement, failures and the
    NRT API table."""
    load(trace)
    text = open(summary).read()
    calls = _truth(truth)
    cov = re.search(r"\nNeuronCores: busy share of the covered time \(([\d.]+) (\w+)\)\n(.*?)\n\n",
                    text, re.S)
    covered = float(cov.group(1)) * SCALE[cov.group(2)]
    busy = collections.defaultdict(int)
    for c in calls:
        if c["call"].startswith("nrt_execute"):
            for nc in c["nc"]:
                busy[(c["pid"], nc)] += c["dur"]   # no two executions overlap on a core here
    rows = cov.group(3).splitlines()[1:]
    if len(rows) != len(busy):
        fail("%d core rows, want %d" % (len(rows), len(busy)))
    for line in rows:
        m = re.match(r"\s*([\d.]+) % +([\d.]+) (\w+) +(\d+)  nc (\d+) of .*pid (\d+)\)$", line)
        b = busy[(int(m.group(6)), int(m.group(5)))]
        if (abs(float(m.group(2)) * SCALE[m.group(3)] - b) > 1 or
                abs(float(m.group(1)) - 100.0 * b / covered) > 0.051):
            fail("%r: want busy %d ns" % (line, b))
    traffic = collections.defaultdict(lambda: [0, 0, 0])
    ops = {"nrt_tensor_read": "read", "nrt_tensor_write": "write", "nrt_tensor_copy": "copy",
           "nrt_tensor_memset": "memset"}
    for c in calls:
        op = ops.get(c["call"])
        if op:
            t = traffic[(op, "device" if c["nc"] else "host")]
            t[0] += 1
            t[1] += c["bytes"]
            t[2] += c["dur"]
    body = text.split("\nNRT tensor traffic\n")[1].split("\n\n")[0].splitlines()[1:]
    got = {}
    for line in body:
        m = re.match(r"\s*([\d,]+) +([\d,]+) +([\d.]+) (\w+) +([\d.]+)  (\w+) +(\w+)$", line)
        got[(m.group(6), m.group(7))] = [int(m.group(1).replace(",", "")),
                                         int(m.group(2).replace(",", "")),
                                         float(m.group(3)) * SCALE[m.group(4)],
                                         float(m.group(5))]
    for k, (n, b, t) in traffic.items():
        g = got.get(k)
        if not g or g[0] != n or g[1] != b or abs(g[2] - t) > 1 or abs(g[3] - b / t) > 0.0005:
            fail("traffic %s: summary %s, truth %s" % (k, g, (n, b, t)))
    if set(got) != set(traffic):
        fail("traffic rows %s, truth %s" % (sorted(got), sorted(traffic)))
    if (not re.search(r"\n +1  NRT_EXEC_BAD_INPUT +nrt_execute\n", text) or
            "\nNRT API\n" not in text):
        fail("no failure row or no NRT API table")


def by_neuroncore(trace):
    """--group-by neuroncore: groups nc 0..2 first, a track per process in each, threads by
    process."""
    d = load(trace)
    groups = nrt.groupnames(d)
    names = tracknames(d)
    pidx = nrt.sortidx(d, "process_sort_index")
    cores = {p: n for p, n in groups.items() if n.startswith("nc ")}
    if sorted(cores.values()) != ["nc 0", "nc 1", "nc 2"]:
        fail("core groups %s" % sorted(cores.values()))
    in_order = sorted(cores, key=pidx.get) == sorted(cores, key=lambda p: int(cores[p][3:]))
    if (not in_order or
            max(pidx[p] for p in cores) >= min(pidx[p] for p in groups if p not in cores)):
        fail("core groups not first, in core order")
    nc0 = sorted(n for (p, t), n in names.items() if groups.get(p) == "nc 0")
    if nc0 != ["nrt-app (trn-a, pid 900)", "nrt-app (trn-a, pid 900) (2)",
               "nrt-app (trn-b, pid 950)"]:
        fail("tracks of nc 0: %s" % nc0)
    for e in events(d):
        if e["ph"] == "X":
            if (e.get("cat") == "neuroncore") != (e["pid"] in cores):
                fail("%s in group %s" % (e["name"], groups.get(e["pid"])))
            if e["pid"] in cores and "nc %d" % e["args"]["nc"] != cores[e["pid"]]:
                fail("nc %d work in group %s" % (e["args"]["nc"], cores[e["pid"]]))
    threads = sorted(n for (p, t), n in names.items() if p not in cores)
    if threads != ["nrt-app", "nrt-app", "worker"]:
        fail("threads by process: %s" % threads)


def by_instance(trace):
    """--group-by instance: a group per host named with its instance type, each process's
    threads then cores."""
    d = load(trace)
    groups = nrt.groupnames(d)
    names = tracknames(d)
    pidx = nrt.sortidx(d, "process_sort_index")
    tidx = nrt.sortidx(d, "thread_sort_index")
    hosts = {p: n for p, n in groups.items() if n in ("trn-a (trn1.32xlarge)", "trn-b")}
    if len(hosts) != 2:
        fail("host groups: %s" % groups)
    a = [p for p in hosts if hosts[p].startswith("trn-a")][0]
    b = [p for p in hosts if hosts[p] == "trn-b"][0]
    ta = sorted((n for (p, t), n in names.items() if p == a),
                key=lambda n: tidx[[k for k in names if names[k] == n and k[0] == a][0]])
    want = ["nrt-app (trn-a, pid 900): nrt-app", "nrt-app (trn-a, pid 900): worker",
            "nrt-app (trn-a, pid 900): nc 0", "nrt-app (trn-a, pid 900): nc 0 (2)",
            "nrt-app (trn-a, pid 900): nc 1", "nrt-app (trn-a, pid 900): nc 2"]
    if ta != want:
        fail("tracks of trn-a in order: %s" % ta)
    tb = sorted(n for (p, t), n in names.items() if p == b)
    if tb != ["nrt-app (trn-b, pid 950): nc 0", "nrt-app (trn-b, pid 950): nc 1",
              "nrt-app (trn-b, pid 950): nrt-app"]:
        fail("tracks of trn-b: %s" % tb)
    if any(e["pid"] not in hosts for e in events(d) if e["ph"] == "X"):
        fail("a span outside the host groups")
    if not pidx[a] < pidx[b] < min(v for p, v in pidx.items() if p not in hosts):
        fail("host groups not first, in host order")


def by_domain(trace):
    """--group-by domain: NeuronCores and API calls each in a group of their own."""
    d = load(trace)
    groups = nrt.groupnames(d)
    g = [p for p, n in groups.items() if n == "NeuronCores"]
    c = [p for p, n in groups.items() if n == "API calls"]
    if len(g) != 1 or len(c) != 1:
        fail("groups %s" % groups)
    for e in events(d):
        if e["ph"] == "X" and e["pid"] != (g[0] if e["cat"] == "neuroncore" else c[0]):
            fail("%s in %s" % (e["name"], groups.get(e["pid"])))


def otf2_cores(defs, evs, truth):
    """OTF2: a location per NeuronCore (process, nc), every execution and device call entered
    there (DEFS and EVS: what otf2-print -G and otf2-print printed)."""
    defs = open(defs).read()
    evs = open(evs).read().splitlines()
    calls = _truth(truth)
    locs = {}
    for m in re.finditer(r'^LOCATION +(\d+) +Name: "(?:pid \d+(?: on [^:"]*)?: )?([^"]*)" <\d+>, '
                         r'Type: (\w+), # Events: \d+, Group: "([^"]*)"', defs, re.M):
        locs[int(m.group(1))] = (m.group(2), m.group(3), m.group(4))
    ncs = {k: v for k, v in locs.items() if v[0].startswith("nc ")}
    want = {("nc 0", "pid 900"), ("nc 1", "pid 900"), ("nc 2", "pid 900"), ("nc 0", "pid 950"),
            ("nc 1", "pid 950")}
    got = {(n.split(" (")[0], re.search(r"pid \d+", g).group(0)) for n, t, g in ncs.values()}
    second = [(n, g) for n, t, g in ncs.values() if n == "nc 0 (2)"]
    if (got != want or len(second) != 1 or "pid 900" not in second[0][1] or
            any(t != "ACCELERATOR_STREAM" for n, t, g in ncs.values())):
        fail("NeuronCore locations %s" % sorted(ncs.values()))
    enters = collections.Counter()
    for line in evs:
        m = re.match(r"ENTER +(\d+) +\d+ +Region: \"?([^\",]*)\"? <(\d+)>", line)
        if m and int(m.group(1)) in ncs:
            enters[m.group(2)] += 1
    want = collections.Counter()
    for c in calls:
        if c["nc"]:
            want[c["name"] if c["call"].startswith("nrt_execute") else c["call"]] += len(c["nc"])
    if enters != want:
        fail("regions entered on NeuronCores %s, want %s" % (dict(enters), dict(want)))


main(globals())
