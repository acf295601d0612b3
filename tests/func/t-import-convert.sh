#!/bin/sh
# tprof-analyze --import converting a generated Chrome trace of every phase (tests/tools/
# mk-chrome-trace, 30000 events) alone to Chrome, Perfetto and OTF2: the count of each kind of
# record follows from the input's, phase by phase, and the flows keep their ends' times.  The
# import's runs spilled to disk (many small ones) give the same Chrome trace as one run in
# memory.  Flow events that lie in no slice (the generator's pipeline flows, as Chrome's own
# trace files allow) are kept as instants carrying the arrow in Perfetto: as many as the
# Chrome trace has outside its slices.
. "$(dirname "$0")/lib.sh"
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
GEN="$top_builddir/tests/tools/mk-chrome-trace"
plan 9

"$GEN" -n 30000 -o "$T/gen.json" >"$T/gen.count" 2>&1
ok $? "mk-chrome-trace writes 30000 events of every phase"

# What the outputs must hold, from the input: X and B..E pairs are slices; instants of every
# kind (i I R, objects O N D, samples P, async instants n) are instants; a C event is one
# counter sample a number in its args; a flow step t ends one arrow and starts the next.
py 'import collections, json, sys
d = json.load(open(sys.argv[1]))
e = d["traceEvents"] if isinstance(d, dict) else d
c = collections.Counter(x["ph"] for x in e)
num = lambda v: isinstance(v, (int, float)) and not isinstance(v, bool)
series = sum(sum(1 for v in (x.get("args") or {}).values() if num(v)) for x in e if x["ph"] == "C")
want = {"X": c["X"] + c["B"], "i": sum(c[p] for p in "iIRONDPn"), "C": series,
        "b": c["b"], "e": c["e"], "s": c["s"] + c["t"], "f": c["f"] + c["t"]}
if c["B"] != c["E"] or c["b"] != c["e"] or not all(c[p] for p in "XBEiIRCbenstfONDP"):
    sys.exit("the generator wrote %s" % dict(c))
flows = collections.defaultdict(list)
for x in e:
    for p in x["ph"] if x["ph"] in "sf" else "sf" if x["ph"] == "t" else "":
        flows[p].append(round(x["ts"] * 1000))
json.dump({"want": want, "flows": flows}, open(sys.argv[2], "w"))' "$T/gen.json" "$T/want.json"
ok $? "the input's phases counted"

TPROF_TEST_IMPORT_RUN_KB=64 "$ANALYZE" --import "$T/gen.json" -f chrome -o "$T/runs.json" \
	2>"$T/runs.err" &&
	"$ANALYZE" --import "$T/gen.json" -f chrome -o "$T/one.json" 2>"$T/one.err" &&
	cmp -s "$T/runs.json" "$T/one.json"
ok $? "runs of 64 KiB spilled and merged: the same Chrome trace as one run in memory"

pyc 'import collections, json
w = json.load(open(sys.argv[2]))
ev = events(load(sys.argv[1]))
c = collections.Counter(x["ph"] for x in ev if x["ph"] != "M")
bad = {k: (c.get(k, 0), v) for k, v in w["want"].items() if c.get(k, 0) != v}
extra = set(c) - set(w["want"])
sys.exit("counts (got, want) %s, phases not in the input %s" % (bad, extra) if bad or extra else 0)' \
	"$T/one.json" "$T/want.json"
ok $? "Chrome: slices, instants, counter samples, async ranges and flow ends as the input holds"

# the arrows' ends at their own times, to the nanosecond (both sides from their first flow)
pyc 'import json
w = json.load(open(sys.argv[2]))["flows"]
ev = events(load(sys.argv[1]))
bad = []
for p in "sf":
    got = sorted(ns(x["ts"]) for x in ev if x["ph"] == p)
    want = sorted(w[p])
    if len(got) != len(want) or [g - got[0] for g in got] != [v - want[0] for v in want]:
        bad.append("%s: %d ends against %d" % (p, len(got), len(want)))
sys.exit("; ".join(bad) if bad else 0)' "$T/one.json" "$T/want.json"
ok $? "Chrome: every flow start and end at its time, to the nanosecond"

# flow ends that lie in no slice of their thread in the Chrome trace
pyc 'import collections
ev = events(load(sys.argv[1]))
spans = collections.defaultdict(list)
for x in ev:
    if x["ph"] == "X":
        spans[(x["pid"], x["tid"])].append((ns(x["ts"]), ns(x["ts"]) + ns(x["dur"])))
out = sum(1 for x in ev if x["ph"] in "sf" and
          not any(a <= ns(x["ts"]) <= z for a, z in spans[(x["pid"], x["tid"])]))
print(out)' "$T/one.json" >"$T/outside.txt"

"$ANALYZE" --import "$T/gen.json" -f perfetto -o "$T/gen.pftrace" 2>/dev/null &&
	"$PY" "$PFTRACE" compare --flows-outside-slices "$T/gen.pftrace" "$T/one.json" \
		>"$T/pf.json" 2>"$T/pf.err"
ok $? "Perfetto: protoc decodes it and it holds what the Chrome trace does"
[ -s "$T/pf.err" ] && diag "$(tail -n 5 "$T/pf.err")"

py 'import json, sys
s = json.load(open(sys.argv[1]))
w = json.load(open(sys.argv[2]))["want"]
outside = int(open(sys.argv[3]).read())
want = {"slices": w["X"] + w["b"], "instants": w["i"], "counters": w["C"], "flows": w["s"],
        "unanchored": outside}
bad = {k: (s.get(k), v) for k, v in want.items() if s.get(k) != v}
sys.exit("(got, want) %s" % bad if bad or not outside else 0)' \
	"$T/pf.json" "$T/want.json" "$T/outside.txt"
ok $? "Perfetto: the counts; flow ends outside slices as many as in Chrome ($(cat "$T/outside.txt"))"

if command -v otf2-print >/dev/null 2>&1; then
	"$ANALYZE" --import "$T/gen.json" -f otf2 -o "$T/gen.otf2" 2>/dev/null &&
		otf2-print "$T/gen.otf2/traces.otf2" >"$T/otf2.txt" 2>&1
	ok $? "OTF2: otf2-print reads the archive"
	py 'import collections, json, sys
c = collections.Counter(l.split()[0] for l in open(sys.argv[1]) if l[:1].isupper() and l.split())
w = json.load(open(sys.argv[2]))["want"]
# slices and instants enter and leave (an instant: a region of its own), and so does each
# async range on a location of its own; counter samples are metrics
want = {"ENTER": w["X"] + w["i"] + w["b"], "LEAVE": w["X"] + w["i"] + w["b"], "METRIC": w["C"]}
bad = {k: (c[k], v) for k, v in want.items() if c[k] != v}
sys.exit("(got, want) %s" % bad if bad else 0)' "$T/otf2.txt" "$T/want.json"
	ok $? "OTF2: ENTER and LEAVE for slices, instants and async ranges, METRIC for counters"
else
	skip "otf2-print is not installed"
	skip "otf2-print is not installed"
fi
