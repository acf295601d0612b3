#!/bin/sh
# tprof.torch's rewrite of PyTorch's Chrome trace (python/tprof/_chrome.py), without PyTorch:
# traces written the way PyTorch's own writer writes them (names unescaped) and the way Kineto
# does (an object), read in chunks of every size, come out as one valid JSON object with the
# "tprof" key first, every name exact and every other field as written; a big trace is
# rewritten in little memory; a damaged one is refused.
. "$(dirname "$0")/lib.sh"
SYS_PY=${SYSTEM_PYTHON3:-/usr/bin/python3}
[ -x "$SYS_PY" ] || skip_all "no $SYS_PY (Debian's own python3)"
plan 6

PYDIR=$(cd "$top_srcdir/python" && pwd -P)
export PYTHONDONTWRITEBYTECODE=1
# The helpers: write(path, events) as PyTorch 1.13's EventList.export_chrome_trace writes
# (the same format strings), rewrite(src, meta) -> (the parsed output, count).
HELPERS='
import json, os, sys
sys.path.insert(0, os.environ["PYDIR"])
from tprof import _chrome
T = os.environ["T"]
def write(path, events):
    with open(path, "w") as f:
        f.write("[")
        for e in events:
            if e[0] == "X":
                _, name, ts, dur, tid = e
                f.write("{\"name\": \"%s\", \"ph\": \"X\", \"ts\": %s, \"dur\": %s, \"tid\": %s, "
                        "\"pid\": \"CPU functions\", \"args\": {}}, " % (name, ts, dur, tid))
            else:
                _, name, ts, tid, fid = e
                f.write("{\"name\": \"%s\", \"ph\": \"s\", \"ts\": %s, \"tid\": %s, "
                        "\"pid\": \"CPU functions\", \"id\": %s, \"cat\": \"cpu_to_cuda\", "
                        "\"args\": {}}, " % (name, ts, tid, fid))
        if events:
            f.seek(f.tell() - 2, os.SEEK_SET)
            f.truncate()
        f.write("]")
def fix(e):
    if e.get("pid") == "CPU functions":
        e["pid"] = 4242
        if isinstance(e["tid"], int):
            e["tid"] = 777 if e["tid"] == 1 else -e["tid"]
    return e
def rewrite(src, meta):
    n = _chrome.rewrite(src, src + ".out", meta, fix)
    with open(src + ".out") as f:
        text = f.read()
    if not text.startswith("{\"tprof\": "): sys.exit("the output does not begin with tprof")
    return json.loads(text), n
NAMES = ["aten::mm", "a \"quoted\" name", "back\\slash", "not a tab: \\t", "a real\ttab",
         "braces {}, [] and \", \"", "caf\u00e9 \u4e2d", "ProfilerStep#3", ""]
'
export PYDIR T

check "PyTorch's own writer's trace: every name exact, pid and tid rewritten, all else as written" \
	"$SYS_PY" -c "$HELPERS"'
evs = [("X", n, 10 * i, i + 1, 1 if i % 2 else 2) for i, n in enumerate(NAMES)]
evs.append(("s", "launch \"k\"", 99, 1, 5))
evs.append(("X", "remote", 100, 2, "\" node_id:1, thread_id:3 \""))
write(T + "/legacy.json", evs)
meta = {"host": "h", "pid": 4242, "tid": 777, "source": "test"}
d, n = rewrite(T + "/legacy.json", meta)
if d["tprof"] != meta or list(d) != ["tprof", "traceEvents"]: sys.exit("keys %s" % list(d))
ev = d["traceEvents"]
if n != len(evs) or len(ev) != len(evs): sys.exit("%d events, %d counted, want %d" % (len(ev), n, len(evs)))
for i, name in enumerate(NAMES):
    want = {"name": name, "ph": "X", "ts": 10 * i, "dur": i + 1, "tid": 777 if i % 2 else -2,
            "pid": 4242, "args": {}}
    if ev[i] != want: sys.exit("event %d: %r, want %r" % (i, ev[i], want))
want = {"name": "launch \"k\"", "ph": "s", "ts": 99, "tid": 777, "pid": 4242, "id": 5,
        "cat": "cpu_to_cuda", "args": {}}
if ev[-2] != want: sys.exit("flow %r" % ev[-2])
if ev[-1]["tid"] != " node_id:1, thread_id:3 " or ev[-1]["pid"] != 4242: sys.exit("remote %r" % ev[-1])
'
check "the same read in chunks of 1 to 64 characters" "$SYS_PY" -c "$HELPERS"'
evs = [("X", n, 10 * i, i + 1, 1) for i, n in enumerate(NAMES * 3)]
write(T + "/chunks.json", evs)
whole, _ = rewrite(T + "/chunks.json", {})
for size in list(range(1, 17)) + [31, 64]:
    _chrome.CHUNK = size
    d, n = rewrite(T + "/chunks.json", {})
    if d != whole or n != len(evs): sys.exit("chunks of %d: another result" % size)
'
check "Kineto's object form: its keys kept in order, events rewritten, a tprof key of its own replaced" \
	"$SYS_PY" -c "$HELPERS"'
src = {"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "gpu \"0\""}],
       "traceEvents": [{"ph": "X", "name": "aten::add", "pid": "CPU functions", "tid": 1, "ts": 5.5,
                        "dur": 1.25, "args": {"External id": 3}},
                       {"ph": "X", "name": "kernel", "pid": 0, "tid": 7, "ts": 6, "dur": 2}],
       "traceName": "t.json", "tprof": {"old": 1}, "displayTimeUnit": "ms"}
for size in (3, 1 << 20):
    _chrome.CHUNK = size
    with open(T + "/kineto.json", "w") as f:
        json.dump(src, f, indent=2)
    d, n = rewrite(T + "/kineto.json", {"pid": 4242})
    if list(d) != ["tprof", "schemaVersion", "deviceProperties", "traceEvents", "traceName",
                   "displayTimeUnit"]:
        sys.exit("keys %s" % list(d))
    if d["tprof"] != {"pid": 4242} or n != 2: sys.exit("tprof %s, %d events" % (d["tprof"], n))
    for k in ("schemaVersion", "deviceProperties", "traceName", "displayTimeUnit"):
        if d[k] != src[k]: sys.exit("%s: %r" % (k, d[k]))
    want = [dict(src["traceEvents"][0], pid=4242, tid=777), src["traceEvents"][1]]
    if d["traceEvents"] != want: sys.exit("events %r" % d["traceEvents"])
'
check "empty traces of both forms" "$SYS_PY" -c "$HELPERS"'
for text in ("[]", "{\"traceEvents\": []}", "{}", " [ ] \n"):
    with open(T + "/empty.json", "w") as f:
        f.write(text)
    d, n = rewrite(T + "/empty.json", {"x": 1})
    if n != 0 or d != {"tprof": {"x": 1}, "traceEvents": []}: sys.exit("%r: %r" % (text, d))
'
check "a damaged trace (cut short, or with something after it) is refused with ValueError" \
	"$SYS_PY" -c "$HELPERS"'
write(T + "/whole.json", [("X", n, 1, 1, 1) for n in NAMES])
text = open(T + "/whole.json").read()
for bad in (text[:len(text) // 2], text[:-1], text + "x", "{\"traceEvents\": [1, 2}", "nonsense"):
    with open(T + "/bad.json", "w") as f:
        f.write(bad)
    try:
        _chrome.rewrite(T + "/bad.json", T + "/bad.out", {}, fix)
    except ValueError:
        continue
    sys.exit("accepted: %r" % bad[-40:])
'
check "a trace of 300000 events is rewritten holding a small part of it in memory" "$SYS_PY" -c "$HELPERS"'
import tracemalloc
write(T + "/big.json", [("X", "aten::op%d" % (i % 50), i, 3, 1) for i in range(300000)])
size = os.path.getsize(T + "/big.json")
tracemalloc.start()
n = _chrome.rewrite(T + "/big.json", T + "/big.out", {}, fix)
peak = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
if n != 300000: sys.exit("%d events" % n)
if peak > size / 8: sys.exit("peak %d bytes for a %d-byte trace" % (peak, size))
print("# peak %d bytes for a %d-byte trace" % (peak, size))
with open(T + "/big.out") as f:
    if len(json.load(f)["traceEvents"]) != 300000: sys.exit("output")
'
finish
