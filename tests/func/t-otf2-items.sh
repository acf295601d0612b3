#!/bin/sh
# The OTF2 renderer on scene items made by hand (unit/otf2-items): the scene's arguments as
# attributes (the model's with the archive's names and types, every other by its key and its
# type, arrays as one string, nested objects left out); a device stream's spans written in
# start order though they came out of it (one that ran before the latest, one a runtime held
# and drew later under another name, which becomes its label); a NeuronCore's overlapping
# spans on two lanes of its own group and system tree node; a category no renderer knows; a
# range's Leave with its arguments; a step, a counter, ranges across threads.  otf2-print
# must read it all without complaint, every location nested and in time order.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
plan 9

T0=1700000000000001000
"$top_builddir/tests/unit/otf2-items" "$T/a" && otf2_print "$T/a/traces.otf2" "$T/a.txt"
ok $? "the items are written, and otf2-print reads the archive without complaint"
[ -s "$T/a.txt.err" ] && diag "$(cat "$T/a.txt.err")"

pyo '
bad = nesting(events(sys.argv[1]))
if bad:
    sys.exit("\n".join(bad[:10]))
' "$T/a.txt"
ok $? "every location: times never go back, every Enter has its Leave, properly nested"

# Locations by name, within their group.
LOCS='
d = defs(sys.argv[1] + ".defs")
loc = {int(i): (loc_what(t), re.search(r"Group: \"([^\"]*)\"", t).group(1), t) for k, i, t in d if k == "LOCATION"}
def at(locname):
    return [l for l, v in loc.items() if v[0] == locname]
def regions_on(l):
    return [(n, a - T0, b - T0) for x, n, a, b in regions(events(sys.argv[1])) if x == l]
T0 = int(sys.argv[2])
'

pyo "$LOCS"'
l = at("GPU 0 stream 1")
got = regions_on(l[0]) if len(l) == 1 else None
want = [("k1", 100, 200), ("k2", 210, 290), ("k3", 300, 400), ("ncclAllReduce", 500, 600),
        ("k4", 700, 800), ("k5", 900, 950)]
if sorted(got or [], key=lambda r: r[1]) != want or got != sorted(got, key=lambda r: r[2]):
    sys.exit("device stream %s: %s" % (l, got))
' "$T/a.txt" "$T0"
ok $? "a device stream: every span at its times, in start order (the late and the held ones too)"

pyo '
ev = events(sys.argv[1])
held = [t for r, l, _, t in ev if r == "ENTER" and name(t) == "ncclAllReduce"]
d = {k: t for k, i, t in defs(sys.argv[1] + ".defs") if k == "REGION" and name(t) == "ncclAllReduce"}
if len(held) != 1 or "(\"label\" <" not in held[0] or "\"ncclGroup (2 ops: Send, Recv)\"" not in held[0] or \
        "(\"nccl_instance\" <" not in held[0] or "device collective" not in d.get("REGION", ""):
    sys.exit("held span %s, region %s" % (held, d))
' "$T/a.txt"
ok $? "the held span keeps the name it was announced with, its drawn name is its label"

pyo '
ev = events(sys.argv[1])
calls = [t for r, l, _, t in ev if r == "ENTER" and name(t) == "hipLaunchKernel"]
want = ["(\"correlation id\" <%d>; UINT64; 7)", "(\"return code\" <%d>; INT64; 3)",
        "(\"device\" <%d>; UINT32; 1)", "(\"stream\" <%d>; UINT64; 2748)",
        "(\"kernel\" <%d>; STRING; \"vadd\" <%d>)", "(\"grid\" <%d>; STRING; \"[4,1,1]\" <%d>)",
        "(\"shared memory\" <%d>; UINT64; 0)", "(\"GB/s\" <%d>; DOUBLE; 1.5)",
        "(\"waited_us\" <%d>; DOUBLE; 2.5)", "(\"matched\" <%d>; UINT8; 1)",
        "(\"last\" <%d>; STRING; \"here\" <%d>)"]
pat = [re.escape(w).replace("%d", "\\d+") for w in want]
bad = [w for w, p in zip(want, pat) for c in calls if not re.search(p, c)]
peers = [re.findall(r"\(\"peer\" <\d+>; (\w+); ([^)]*)\)", c) for c in calls]
if len(calls) != 2 or bad or peers != [[("INT64", "-2")], [("STRING", "\"ANY\" <%s>" % re.search(r"\"ANY\" <(\d+)>", calls[1]).group(1))]] or \
        any("functions" in c or "\"ops\"" in c or "\"polls\"" in c for c in calls):
    sys.exit("calls %s; missing %s; peers %s" % (calls, bad, peers))
' "$T/a.txt"
ok $? "arguments as attributes: the model names and types, a runtime's by key and value, arrays as strings, no nested objects"

pyo "$LOCS"'
d = defs(sys.argv[1] + ".defs")
nc = {loc[l][0]: loc[l] for l in at("nc 2") + at("nc 2 (2)")}
groups = [t for k, i, t in d if k == "LOCATION_GROUP" and name(t).startswith("nc 2, ")]
node = [t for k, i, t in d if k == "SYSTEM_TREE_NODE" and name(t) == "NeuronCore 2"]
regs = [t for k, i, t in d if k == "REGION" and name(t) == "mlp"]
if sorted(nc) != ["nc 2", "nc 2 (2)"] or any("ACCELERATOR_STREAM" not in v[2] or not v[1].startswith("nc 2, ") for v in nc.values()) \
        or len(groups) != 1 or "Type: ACCELERATOR" not in groups[0] or len(node) != 1 or \
        len(regs) != 1 or "work on a NeuronCore" not in regs[0]:
    sys.exit("NeuronCore locations %s, groups %s, nodes %s, regions %s" % (nc, groups, node, regs))
' "$T/a.txt" "$T0"
ok $? "a NeuronCore: a lane per overlap, in an accelerator group under its system tree node"

pyo '
d = [t for k, i, t in defs(sys.argv[1] + ".defs") if k == "REGION"]
toy = [t for t in d if name(t) == "toyMake"]
hip = [t for t in d if name(t) == "hipLaunchKernel"]
if len(toy) != 1 or "Descr.: \"toy\"" not in toy[0] or "Role: FUNCTION" not in toy[0] or \
        "Paradigm: \"user\"" not in toy[0] or len(hip) != 1 or "HIP API call" not in hip[0] or "\"HIP\"" not in hip[0]:
    sys.exit("regions %s %s" % (toy, hip))
' "$T/a.txt"
ok $? "a category of its own is described by its name; the model's keep their paradigm"

pyo '
ev = events(sys.argv[1])
leave = [t for r, l, _, t in ev if r == "LEAVE" and name(t) == "outer"]
enter = [t for r, l, _, t in ev if r == "ENTER" and name(t) == "outer"]
if len(leave) != 1 or "(\"unfinished\" <" not in leave[0] or len(enter) != 1 or "ATTRIBUTES" in enter[0]:
    sys.exit("outer: enter %s, leave %s" % (enter, leave))
' "$T/a.txt"
ok $? "a range: its arguments on its Leave"

pyo "$LOCS"'
ev = events(sys.argv[1])
steps = [(r, t - T0, x) for r, l, t, x in ev if l in at("steps")]
lanes = at("ranges across threads") + at("ranges across threads 2")
metric = [x for r, l, t, x in ev if r == "METRIC" and l in at("counters")]
if [(r, t) for r, t, x in steps] != [("ENTER", 50), ("PARAMETER_UINT64", 50), ("LEAVE", 1100)] or \
        "Value: 3" not in steps[1][2] or name(steps[0][2]) != "step" or len(lanes) != 2 or \
        len(metric) != 1 or "DOUBLE; 1.5" not in metric[0]:
    sys.exit("steps %s, lanes %s, metric %s" % (steps, lanes, metric))
' "$T/a.txt" "$T0"
ok $? "a step with its number, a counter, two overlapping ranges across threads on two lanes"
finish
