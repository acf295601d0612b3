#!/bin/sh
# tprof-analyze's Neuron runtime outputs end to end, on the trace of a synthetic job written
# by apps/nrt-synth (two processes on two hosts, two threads driving three NeuronCores, a model
# on two cores, a failed execution, tensor traffic on device and host tensors, work from two
# threads overlapping on one core), checked against the truth it prints: every execution and
# device tensor call on its process's "nc N" track(s), named by model, with the call's exact
# times and arguments and a flow from the call on its thread; host calls only on the thread;
# no two spans of one track overlapping; the summary's figures equal to a recomputation from
# the Chrome trace; --group-by neuroncore, instance and domain laid out as documented; the
# OTF2 archive with a location per NeuronCore, read by otf2-print.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt-analyze.sh"
SYNTH="$APPS/nrt-synth"
[ -x "$SYNTH" ] || skip_all "apps/nrt-synth was not built"
plan 14

"$SYNTH" "$T/job" >"$T/truth.json"
ok $? "the synthetic job is written"

"$ANALYZE" "$T/job" -f chrome -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/err.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

# The truth, and the time of the trace start in the job's ticks.
NRT_PY="$NRT_PY"'
def truth(path):
    with open(path) as f:
        return json.load(f)["calls"]
def t0_of(d):
    # nrt_init of pid 900 started at tick 2000
    for e in events(d):
        if e["ph"] == "X" and e["name"] == "nrt_init" and e["tid"] == 900:
            return 2000 - ns(e["ts"])
    sys.exit("no nrt_init on thread 900")
'

pyc "$NRT_PY"'
d = load(sys.argv[1]); calls = truth(sys.argv[2])
names = tracknames(d); real = realpid(d); off = t0_of(d)
spans = core_spans(d)
left = list(spans)
for c in calls:
    for nc in c["nc"]:
        want = "nc %d" % nc
        hit = [e for e in left if real[e["pid"]] == c["pid"] and names[(e["pid"], e["tid"])].split(" (")[0] == want
               and ns(e["ts"]) + off == c["t0"] and ns(e["dur"]) == c["dur"]
               and e["name"] == (c["name"] if c["call"].startswith("nrt_execute") else c["call"])
               and e["args"]["call"] == c["call"] and e["args"]["nc"] == nc]
        if len(hit) != 1:
            sys.exit("%s of pid %d (%s, t0 %d): %d spans on %s" % (c["call"], c["pid"], c["name"], c["t0"], len(hit), want))
        left.remove(hit[0])
if left:
    sys.exit("%d spans on NeuronCore tracks the job never ran, e.g. %s" % (len(left), left[0]))
' "$T/t.json" "$T/truth.json"
ok $? "every execution and device tensor call on its process's nc N track(s), named by model or call, with its exact times"

pyc "$NRT_PY"'
d = load(sys.argv[1]); calls = truth(sys.argv[2]); real = realpid(d); off = t0_of(d)
spans = core_spans(d)
for c in calls:
    if c["call"].startswith("nrt_execute"):
        e = [s for s in spans if real[s["pid"]] == c["pid"] and ns(s["ts"]) + off == c["t0"] and s["args"]["nc"] == c["nc"][0]][0]
        a = e["args"]
        st = "NRT_SUCCESS" if c["status"] == 0 else "NRT_EXEC_BAD_INPUT"
        if a["model"] != c["name"] or a["input_bytes"] != c["in"] or a["output_bytes"] != c["out"] or a["status"] != st \
           or a["input_tensors"] != 2 or a["output_tensors"] != 1 or not a["model_handle"].startswith("0x") \
           or not a["thread"].endswith("(tid %d)" % c["tid"]) or bool(a.get("failed")) != (c["status"] != 0):
            sys.exit("execution args %s, truth %s" % (a, c))
        if (c["call"] == "nrt_execute_repeat") != (a.get("repeat") == 3):
            sys.exit("repeat count: %s" % a)
        if len(c["nc"]) > 1 and a.get("cores") != "%d-%d" % (c["nc"][0], c["nc"][-1]):
            sys.exit("cores of a two-core model: %s" % a)
        if c["status"] and e.get("cname") != "terrible":
            sys.exit("a failed execution is not coloured: %s" % e)
    elif c["nc"] and c["call"].startswith("nrt_tensor"):
        e = [s for s in spans if real[s["pid"]] == c["pid"] and ns(s["ts"]) + off == c["t0"] and s["name"] == c["call"]][0]
        a = e["args"]
        if a["bytes"] != c["bytes"] or a["tensor"] != c["name"] or a["placement"] != "device" or abs(a["GB/s"] - c["bytes"] / c["dur"]) > 1e-9:
            sys.exit("tensor call args %s, truth %s" % (a, c))
' "$T/t.json" "$T/truth.json"
ok $? "executions carry model, handle, bytes, tensors, status, thread, repeat, cores; tensor calls bytes, tensor, placement, GB/s; failures marked"

pyc "$NRT_PY"'
d = load(sys.argv[1]); calls = truth(sys.argv[2]); real = realpid(d); off = t0_of(d)
names = tracknames(d)
thread_calls = [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "nrt"]
oncore = {(c["pid"], c["t0"]) for c in calls if c["nc"]}
for e in thread_calls:
    if (real[e["pid"]], ns(e["ts"]) + off) in oncore:
        continue
    if e["name"] not in ("nrt_init", "nrt_close", "nrt_allocate_tensor_set", "nrt_tensor_read"):
        sys.exit("unexpected call only on its thread: %s" % e)
    if e["name"] == "nrt_tensor_read" and e["args"].get("placement") != "host":
        sys.exit("a device read left off its core: %s" % e)
if any(names[(e["pid"], e["tid"])].startswith("nc ") for e in thread_calls):
    sys.exit("an API call on a NeuronCore track")
calls_by_tid = collections.Counter(e["tid"] for e in thread_calls)
want = collections.Counter(c["tid"] for c in calls) + collections.Counter({900: 3, 950: 2})
# on the threads: every call of the truth, plus init/set/close and the host reads
if calls_by_tid != want:
    sys.exit("calls by thread %s, want %s" % (calls_by_tid, want))
s = {e["id"]: e for e in events(d) if e["ph"] == "s" and e["name"] == "nrt"}
f = {e["id"]: e for e in events(d) if e["ph"] == "f" and e["name"] == "nrt"}
n = sum(len(c["nc"]) for c in calls)
if len(s) != n or set(s) != set(f):
    sys.exit("%d flow starts, %d ends, want %d" % (len(s), len(f), n))
for i in s:
    if names[(s[i]["pid"], s[i]["tid"])].startswith("nc ") or not names[(f[i]["pid"], f[i]["tid"])].startswith("nc ") or f[i].get("bp") != "e":
        sys.exit("flow %s not from a thread to a core" % i)
' "$T/t.json" "$T/truth.json"
ok $? "every call stays on its thread (host-only calls only there), with a flow to each core it occupied"

pyc "$NRT_PY"'
d = load(sys.argv[1])
names = tracknames(d); order = sortidx(d, "thread_sort_index")
if overlaps(d):
    sys.exit(overlaps(d))
lanes = [n for n in names.values() if n == "nc 0 (2)"]
if len(lanes) != 1:
    sys.exit("no second lane for the write overlapping mlp on nc 0: %s" % sorted(set(names.values())))
for (pid, tid), n in names.items():
    if n.startswith("nc "):
        threads = [order[k] for k, m in names.items() if k[0] == pid and not m.startswith("nc ")]
        if order[(pid, tid)] <= max(threads):
            sys.exit("%s of %d sorts before a thread" % (n, pid))
' "$T/t.json"
ok $? "no track holds overlapping spans (a second lane 'nc 0 (2)'), NeuronCores sort after the threads"

# The summary against the Chrome trace.
pyc "$NRT_PY"'
err = model_table_errors(load(sys.argv[1]), open(sys.argv[2]).read())
if err:
    sys.exit(err)
' "$T/t.json" "$T/sum.txt"
ok $? "the NRT models table equals its recomputation from the Chrome trace (executions, times, failures, bytes, GB/s, cores)"

pyc "$NRT_PY"'
d = load(sys.argv[1]); text = open(sys.argv[2]).read(); calls = truth(sys.argv[3])
cov = re.search(r"\nNeuronCores: busy share of the covered time \(([\d.]+) (\w+)\)\n(.*?)\n\n", text, re.S)
scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
covered = float(cov.group(1)) * scale[cov.group(2)]
busy = collections.defaultdict(int)
for c in calls:
    if c["call"].startswith("nrt_execute"):
        for nc in c["nc"]:
            busy[(c["pid"], nc)] += c["dur"]   # no two executions overlap on a core here
rows = cov.group(3).splitlines()[1:]
if len(rows) != len(busy):
    sys.exit("%d core rows, want %d" % (len(rows), len(busy)))
for line in rows:
    m = re.match(r"\s*([\d.]+) % +([\d.]+) (\w+) +(\d+)  nc (\d+) of .*pid (\d+)\)$", line)
    b = busy[(int(m.group(6)), int(m.group(5)))]
    if abs(float(m.group(2)) * scale[m.group(3)] - b) > 1 or abs(float(m.group(1)) - 100.0 * b / covered) > 0.051:
        sys.exit("%r: want busy %d ns" % (line, b))
traffic = collections.defaultdict(lambda: [0, 0, 0])
for c in calls:
    op = {"nrt_tensor_read": "read", "nrt_tensor_write": "write", "nrt_tensor_copy": "copy", "nrt_tensor_memset": "memset"}.get(c["call"])
    if op:
        t = traffic[(op, "device" if c["nc"] else "host")]
        t[0] += 1; t[1] += c["bytes"]; t[2] += c["dur"]
body = text.split("\nNRT tensor traffic\n")[1].split("\n\n")[0].splitlines()[1:]
got = {}
for line in body:
    m = re.match(r"\s*([\d,]+) +([\d,]+) +([\d.]+) (\w+) +([\d.]+)  (\w+) +(\w+)$", line)
    got[(m.group(6), m.group(7))] = [int(m.group(1).replace(",", "")), int(m.group(2).replace(",", "")), float(m.group(3)) * scale[m.group(4)], float(m.group(5))]
for k, (n, b, t) in traffic.items():
    g = got.get(k)
    if not g or g[0] != n or g[1] != b or abs(g[2] - t) > 1 or abs(g[3] - b / t) > 0.0005:
        sys.exit("traffic %s: summary %s, truth %s" % (k, g, (n, b, t)))
if set(got) != set(traffic):
    sys.exit("traffic rows %s, truth %s" % (sorted(got), sorted(traffic)))
if not re.search(r"\n +1  NRT_EXEC_BAD_INPUT +nrt_execute\n", text) or "\nNRT API\n" not in text:
    sys.exit("no failure row or no NRT API table")
' "$T/t.json" "$T/sum.txt" "$T/truth.json"
ok $? "busy share per NeuronCore, tensor traffic by operation and placement, failures and the NRT API table"

# --group-by
"$ANALYZE" "$T/job" --group-by neuroncore -o "$T/nc.json" 2>/dev/null &&
	pyc "$NRT_PY"'
d = load(sys.argv[1]); groups = groupnames(d); names = tracknames(d); pidx = sortidx(d, "process_sort_index")
cores = {p: n for p, n in groups.items() if n.startswith("nc ")}
if sorted(cores.values()) != ["nc 0", "nc 1", "nc 2"]:
    sys.exit("core groups %s" % sorted(cores.values()))
if sorted(cores, key=pidx.get) != sorted(cores, key=lambda p: int(cores[p][3:])) or max(pidx[p] for p in cores) >= min(pidx[p] for p in groups if p not in cores):
    sys.exit("core groups not first, in core order")
nc0 = sorted(n for (p, t), n in names.items() if groups.get(p) == "nc 0")
if nc0 != ["nrt-app (trn-a, pid 900)", "nrt-app (trn-a, pid 900) (2)", "nrt-app (trn-b, pid 950)"]:
    sys.exit("tracks of nc 0: %s" % nc0)
for e in events(d):
    if e["ph"] == "X":
        if (e.get("cat") == "neuroncore") != (e["pid"] in cores):
            sys.exit("%s in group %s" % (e["name"], groups.get(e["pid"])))
        if e["pid"] in cores and "nc %d" % e["args"]["nc"] != cores[e["pid"]]:
            sys.exit("nc %d work in group %s" % (e["args"]["nc"], cores[e["pid"]]))
threads = sorted(n for (p, t), n in names.items() if p not in cores)
if threads != ["nrt-app", "nrt-app", "worker"]:
    sys.exit("threads by process: %s" % threads)
' "$T/nc.json"
ok $? "--group-by neuroncore: groups nc 0..2 first, a track per process in each, threads by process"

"$ANALYZE" "$T/job" --group-by instance -o "$T/in.json" 2>/dev/null &&
	pyc "$NRT_PY"'
d = load(sys.argv[1]); groups = groupnames(d); names = tracknames(d); pidx = sortidx(d, "process_sort_index")
tidx = sortidx(d, "thread_sort_index")
hosts = {p: n for p, n in groups.items() if n in ("trn-a (trn1.32xlarge)", "trn-b")}
if len(hosts) != 2:
    sys.exit("host groups: %s" % groups)
a = [p for p in hosts if hosts[p].startswith("trn-a")][0]
b = [p for p in hosts if hosts[p] == "trn-b"][0]
ta = sorted((n for (p, t), n in names.items() if p == a), key=lambda n: tidx[[k for k in names if names[k] == n and k[0] == a][0]])
want = ["nrt-app (trn-a, pid 900): nrt-app", "nrt-app (trn-a, pid 900): worker", "nrt-app (trn-a, pid 900): nc 0",
        "nrt-app (trn-a, pid 900): nc 0 (2)", "nrt-app (trn-a, pid 900): nc 1", "nrt-app (trn-a, pid 900): nc 2"]
if ta != want:
    sys.exit("tracks of trn-a in order: %s" % ta)
tb = sorted(n for (p, t), n in names.items() if p == b)
if tb != ["nrt-app (trn-b, pid 950): nc 0", "nrt-app (trn-b, pid 950): nc 1", "nrt-app (trn-b, pid 950): nrt-app"]:
    sys.exit("tracks of trn-b: %s" % tb)
if any(e["pid"] not in hosts for e in events(d) if e["ph"] == "X"):
    sys.exit("a span outside the host groups")
if not pidx[a] < pidx[b] < min(v for p, v in pidx.items() if p not in hosts):
    sys.exit("host groups not first, in host order")
' "$T/in.json"
ok $? "--group-by instance: a group per host named with its instance type, each process's threads then cores"

"$ANALYZE" "$T/job" --group-by domain -o "$T/dom.json" 2>/dev/null &&
	pyc "$NRT_PY"'
d = load(sys.argv[1]); groups = groupnames(d)
g = [p for p, n in groups.items() if n == "NeuronCores"]
c = [p for p, n in groups.items() if n == "API calls"]
if len(g) != 1 or len(c) != 1:
    sys.exit("groups %s" % groups)
for e in events(d):
    if e["ph"] == "X" and e["pid"] != (g[0] if e["cat"] == "neuroncore" else c[0]):
        sys.exit("%s in %s" % (e["name"], groups.get(e["pid"])))
' "$T/dom.json"
ok $? "--group-by domain: NeuronCores and API calls each in a group of their own"

"$ANALYZE" "$T/job" --group-by cores -o "$T/x.json" 2>"$T/bad.txt"
rc=$?
[ $rc -eq 2 ] && grep -q "'cores'" "$T/bad.txt" && grep -q "neuroncore" "$T/bad.txt" && grep -q "instance" "$T/bad.txt"
ok $? "a bad --group-by value is refused, naming itself and the known ones"

# OTF2
if [ -z "${OTF2_PRINT:-}" ] || [ "$OTF2_PRINT" = no ] || ! command -v "$OTF2_PRINT" >/dev/null 2>&1; then
	skip "no otf2-print (configure found none)"
else
	"$ANALYZE" "$T/job" --format otf2 -o "$T/otf2" 2>/dev/null &&
		"$OTF2_PRINT" -G "$T/otf2/traces.otf2" >"$T/defs.txt" 2>&1 && "$OTF2_PRINT" "$T/otf2/traces.otf2" >"$T/events.txt" 2>&1 &&
		"$PY" - "$T/defs.txt" "$T/events.txt" "$T/truth.json" <<'EOF'
import collections, json, re, sys
defs = open(sys.argv[1]).read(); evs = open(sys.argv[2]).read().splitlines()
calls = json.load(open(sys.argv[3]))["calls"]
locs = {}
for m in re.finditer(r'^LOCATION +(\d+) +Name: "(?:pid \d+(?: on [^:"]*)?: )?([^"]*)" <\d+>, Type: (\w+), # Events: \d+, Group: "([^"]*)"', defs, re.M):
    locs[int(m.group(1))] = (m.group(2), m.group(3), m.group(4))
ncs = {k: v for k, v in locs.items() if v[0].startswith("nc ")}
want = {("nc 0", "pid 900"), ("nc 1", "pid 900"), ("nc 2", "pid 900"), ("nc 0", "pid 950"), ("nc 1", "pid 950")}
got = {(n.split(" (")[0], re.search(r"pid \d+", g).group(0)) for n, t, g in ncs.values()}
lanes = [(n, g) for n, t, g in ncs.values() if n == "nc 0 (2)"]
if got != want or len(lanes) != 1 or "pid 900" not in lanes[0][1] or any(t != "ACCELERATOR_STREAM" for n, t, g in ncs.values()):
    sys.exit("NeuronCore locations %s" % sorted(ncs.values()))
regions = dict(re.findall(r'^REGION +(\d+) +Name: "([^"]*)"', defs, re.M))
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
    sys.exit("regions entered on NeuronCores %s, want %s" % (dict(enters), dict(want)))
EOF
	ok $? "OTF2: a location per NeuronCore (process, nc), every execution and device call entered there, read by otf2-print"
fi

[ ! -s "$T/err.txt" ] || ! grep -v "Chrome trace written" "$T/err.txt" | grep -q .
ok $? "no warnings reading the trace"
finish
