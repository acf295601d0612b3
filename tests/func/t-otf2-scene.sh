#!/bin/sh
# The OTF2 archive renders the scene the Chrome trace renders: on synthetic profiles of
# every runtime the analyzer knows (an MPI job with HIP work, ranges and steps, apps/nrt-synth,
# apps/nccl-synth, apps/dev-synth), every slice and instant of the Chrome trace is a region
# entered on the location named as its track, in its process's group, at its time, and each
# of its arguments is an attribute of that Enter with its value (the model's own under the
# archive's names: "correlation id", "return code", "copy kind", "shared memory", "time in
# polls"; nested objects left out; a range's and a step's on its Leave).  NeuronCore work keeps its own locations with the core
# as "nc"; an NCCL group's span its recorded name, the Chrome name as its label.  Then the
# same on apps/nrt-threads run against the stand-in libnrt.so.1, where a tensor set's
# additions carry the tensor's name (as the archive had them before it rendered the scene).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
APPS="$top_builddir/tests/apps"
plan 11

SAME='
import json, math
chrome = json.load(open(sys.argv[2]))
start = chrome["otherData"]["trace_start_realtime_ns"]
procs, tracks = {}, {}
for e in chrome["traceEvents"]:
    if e["ph"] == "M" and e["name"] == "process_name":
        procs[e["pid"]] = e["args"]["name"]
    if e["ph"] == "M" and e["name"] == "thread_name":
        tracks[(e["pid"], e["tid"])] = e["args"]["name"]
tracks.update({(p, 2147483000): "steps" for p in procs})
d = defs(sys.argv[1] + ".defs")
loc = {}
for k, i, t in d:
    if k == "LOCATION":
        g = re.search(r"Group: \"([^\"]*)\"", t).group(1)
        loc[int(i)] = (re.sub(r"^(GPU|nc) \d+, ", "", g), loc_what(t))
ATTR = re.compile(r"\(\"((?:[^\"\\\\]|\\\\.)*)\" <\d+>; (\w+); (\"(?:[^\"\\\\]|\\\\.)*\" <\d+>|[^,)]*)\)")
enters, leaves = collections.defaultdict(list), collections.defaultdict(list)
for r, l, t, x in events(sys.argv[1]):
    if r in ("ENTER", "LEAVE"):
        attrs = {n: (ty, re.sub(r" <\d+>$", "", v).strip("\"")) for n, ty, v in ATTR.findall(x)}
        (enters if r == "ENTER" else leaves)[(loc[l], t, name(x))].append(attrs)
RENAME = {"correlation": "correlation id", "returned": "return code", "kind": "copy kind",
          "shmem": "shared memory", "time in calls (us)": "time in polls"}
def same(key, want, ty, got):
    if key == "time in calls (us)":
        return int(got) == round(want * 1000)
    if isinstance(want, bool):
        return int(got) == int(want)
    if isinstance(want, int):
        return int(got) == want
    if isinstance(want, float):
        return math.isclose(float(got), want, rel_tol=1e-5, abs_tol=1e-6)  # as printed
    if isinstance(want, list):
        return got == "[" + ",".join(str(v) for v in want) + "]"
    if isinstance(want, str) and want.startswith("0x") and ty.startswith("UINT"):
        return int(got) == int(want, 16)
    return got == want
bad, n, nargs = [], 0, 0
for e in chrome["traceEvents"]:
    if e["ph"] not in ("X", "i") or e["pid"] >= 1000000:
        continue
    where = (procs[e["pid"]], tracks[(e["pid"], e["tid"])])
    t = start + round(e["ts"] * 1000)
    nm = "step" if where[1] == "steps" else e["name"]
    got = enters.get((where, t, nm)) or [a for k, v in enters.items() if k[:2] == (where, t)
                                          for a in v if a.get("label", ("", ""))[1] == nm]
    n += 1
    if not got:
        bad.append("no region %s on %s at %d" % (nm, where, t))
        continue
    if e.get("cat") in ("range", "roctx", "step"):
        # a range'"'"'s and a step'"'"'s arguments are on their Leave
        got = leaves.get((where, t + round(e["dur"] * 1000), nm), [])
    for key, want in e.get("args", {}).items():
        if isinstance(want, dict) or (isinstance(want, list) and any(isinstance(v, (dict, list)) for v in want)):
            continue
        if where[1] == "steps" and key == "step":
            continue
        nargs += 1
        a = RENAME.get(key, key)
        if not any(a in g and same(key, want, g[a][0], g[a][1]) for g in got):
            bad.append("%s on %s at %d: %s = %r, archive: %s" % (nm, where, t, key, want,
                                                                 [g.get(a) for g in got]))
if bad or not n:
    sys.exit("%d of %d slices differ:\n%s" % (len(bad), n, "\n".join(bad[:12])))
print("# %d slices, %d arguments" % (n, nargs))
'

# job NAME DIR: Chrome trace and OTF2 archive of DIR; the two compared (two results).
job() {
	"$ANALYZE" "$2" -f chrome -o "$T/$1.json" 2>"$T/$1.err" &&
		"$ANALYZE" "$2" -f otf2 -o "$T/$1.otf2" 2>>"$T/$1.err" &&
		otf2_print "$T/$1.otf2/traces.otf2" "$T/$1.txt"
	ok $? "$1: both traces are written, otf2-print reads the archive without complaint"
	pyo "$SAME" "$T/$1.txt" "$T/$1.json"
	ok $? "$1: every Chrome slice and instant a region at its place and time, its arguments attributes"
}

mkdir "$T/mpi" && "$top_builddir/tests/unit/test-mpi-trace" "$T/mpi" 2 && job mpi "$T/mpi"
"$APPS/nrt-synth" "$T/nrt" >/dev/null && job nrt "$T/nrt"
"$APPS/nccl-synth" "$T/nccl" >/dev/null && job nccl "$T/nccl"
"$APPS/dev-synth" "$T/dev" >/dev/null && job dev "$T/dev"

if [ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnrt.so.1" ] && [ -x "$APPS/nrt-threads" ] &&
	[ -x "$APPS/mkneff" ]; then
	"$APPS/mkneff" "$T/a.neff" mlp-small exec_us=2000 add=1 in=x:4096 in=y:4096 out=z:4096 &&
		"$APPS/mkneff" "$T/b.neff" conv-big exec_us=3000 add=2 in=img:65536 out=map:32768 &&
		LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
			"$INSPECT" -o "$T/nrtthreads" -- "$APPS/nrt-threads" -n 2 "$T/a.neff" "$T/b.neff" \
			>/dev/null 2>&1
	job nrt-threads "$T/nrtthreads"
	pyo '
import json
ev = [e for e in json.load(open(sys.argv[2]))["traceEvents"] if e.get("name") == "nrt_add_tensor_to_tensor_set"]
got = sorted(e["args"].get("tensor") for e in ev)
adds = [t for r, l, _, t in events(sys.argv[1]) if r == "ENTER" and name(t) == "nrt_add_tensor_to_tensor_set"]
if not ev or None in got or sorted(set(got)) != ["img", "map", "x", "y", "z"] or \
        len(adds) != len(ev) or not all("(\"tensor\" <" in t for t in adds):
    sys.exit("tensor set additions: Chrome %s, archive %s" % (got, adds[:3]))
' "$T/nrt-threads.txt" "$T/nrt-threads.json"
	ok $? "nrt-threads: a tensor set's additions name their tensor, in Chrome and in the archive"
else
	for i in 1 2 3; do
		skip "no stand-in libnrt.so.1 or apps/nrt-threads"
	done
fi
finish
