"""otf2-items.py — the checks of func/t-otf2-items.sh on the OTF2 archive that unit/otf2-items
wrote of scene items made by hand: what otf2-print printed of it, its events (OUT) and global
definitions (OUT.defs), read with the helpers of lib-otf2.py; some checks are also given T0,
the time (ns) the items' times count from."""
import importlib
import re

from checklib import fail, main

otf2 = importlib.import_module("lib-otf2")
events, defs, regions, name, loc_what = (otf2.events, otf2.defs, otf2.regions, otf2.name,
                                         otf2.loc_what)


class _Locs:
    """Locations by name, within their group: loc, {id: (name, group, text)} of every
    LOCATION; at(name), the ids of those of that name; regions_on(id), the regions of one
    location as (name, enter, leave), times from T0."""

    def __init__(self, path, t0):
        self.path, self.t0 = path, int(t0)
        d = defs(path + ".defs")
        self.loc = {int(i): (loc_what(t), re.search(r"Group: \"([^\"]*)\"", t).group(1), t)
                    for k, i, t in d if k == "LOCATION"}

    def at(self, locname):
        return [loc for loc, v in self.loc.items() if v[0] == locname]

    def regions_on(self, loc):
        return [(n, a - self.t0, b - self.t0) for x, n, a, b in regions(events(self.path))
                if x == loc]


def device_stream(path, t0):
    """A device stream: every span at its times, in start order (the late and the held ones
    too)."""
    s = _Locs(path, t0)
    loc = s.at("GPU 0 stream 1")
    got = s.regions_on(loc[0]) if len(loc) == 1 else None
    want = [("k1", 100, 200), ("k2", 210, 290), ("k3", 300, 400), ("ncclAllReduce", 500, 600),
            ("k4", 700, 800), ("k5", 900, 950)]
    if sorted(got or [], key=lambda r: r[1]) != want or got != sorted(got, key=lambda r: r[2]):
        fail("device stream %s: %s" % (loc, got))


def held_span_label(path):
    """The held span keeps the name it was announced with, its drawn name is its label."""
    ev = events(path)
    held = [t for r, loc, _, t in ev if r == "ENTER" and name(t) == "ncclAllReduce"]
    d = {k: t for k, i, t in defs(path + ".defs") if k == "REGION" and name(t) == "ncclAllReduce"}
    if len(held) != 1 or "(\"label\" <" not in held[0] or \
            "\"ncclGroup (2 ops: Send, Recv)\"" not in held[0] or \
            "(\"nccl_instance\" <" not in held[0] or "device collective" not in d.get("REGION", ""):
        fail("held span %s, region %s" % (held, d))


def arguments_as_attributes(path):
    """Arguments as attributes: the model names and types, a runtime's by key and value,
    arrays as strings, no nested objects."""
    ev = events(path)
    calls = [t for r, loc, _, t in ev if r == "ENTER" and name(t) == "hipLaunchKernel"]
    want = ["(\"correlation id\" <%d>; UINT64; 7)", "(\"return code\" <%d>; INT64; 3)",
            "(\"device\" <%d>; UINT32; 1)", "(\"stream\" <%d>; UINT64; 2748)",
            "(\"kernel\" <%d>; STRING; \"vadd\" <%d>)",
            "(\"grid\" <%d>; STRING; \"[4,1,1]\" <%d>)",
            "(\"shared memory\" <%d>; UINT64; 0)", "(\"GB/s\" <%d>; DOUBLE; 1.5)",
            "(\"waited_us\" <%d>; DOUBLE; 2.5)", "(\"matched\" <%d>; UINT8; 1)",
            "(\"last\" <%d>; STRING; \"here\" <%d>)"]
    pat = [re.escape(w).replace("%d", "\\d+") for w in want]
    bad = [w for w, p in zip(want, pat) for c in calls if not re.search(p, c)]
    peers = [re.findall(r"\(\"peer\" <\d+>; (\w+); ([^)]*)\)", c) for c in calls]
    if len(calls) != 2 or bad or peers != [
            [("INT64", "-2")],
            [("STRING", "\"ANY\" <%s>" % re.search(r"\"ANY\" <(\d+)>", calls[1]).group(1))]] or \
            any("functions" in c or "\"ops\"" in c or "\"polls\"" in c for c in calls):
        fail("calls %s; missing %s; peers %s" % (calls, bad, peers))


def neuron_core(path, t0):
    """A NeuronCore: a lane per overlap, in an accelerator group under its system tree
    node."""
    s = _Locs(path, t0)
    d = defs(path + ".defs")
    nc = {s.loc[loc][0]: s.loc[loc] for loc in s.at("nc 2") + s.at("nc 2 (2)")}
    groups = [t for k, i, t in d if k == "LOCATION_GROUP" and name(t).startswith("nc 2, ")]
    node = [t for k, i, t in d if k == "SYSTEM_TREE_NODE" and name(t) == "NeuronCore 2"]
    regs = [t for k, i, t in d if k == "REGION" and name(t) == "mlp"]
    if sorted(nc) != ["nc 2", "nc 2 (2)"] or \
            any("ACCELERATOR_STREAM" not in v[2] or not v[1].startswith("nc 2, ")
                for v in nc.values()) or \
            len(groups) != 1 or "Type: ACCELERATOR" not in groups[0] or len(node) != 1 or \
            len(regs) != 1 or "work on a NeuronCore" not in regs[0]:
        fail("NeuronCore locations %s, groups %s, nodes %s, regions %s" % (
            nc, groups, node, regs))


def category_regions(path):
    """A category of its own is described by its name; the model's keep their paradigm."""
    d = [t for k, i, t in defs(path + ".defs") if k == "REGION"]
    toy = [t for t in d if name(t) == "toyMake"]
    hip = [t for t in d if name(t) == "hipLaunchKernel"]
    if len(toy) != 1 or "Descr.: \"toy\"" not in toy[0] or "Role: FUNCTION" not in toy[0] or \
            "Paradigm: \"user\"" not in toy[0] or len(hip) != 1 or \
            "HIP API call" not in hip[0] or "\"HIP\"" not in hip[0]:
        fail("regions %s %s" % (toy, hip))


def range_on_leave(path):
    """A range: its arguments on its Leave."""
    ev = events(path)
    leave = [t for r, loc, _, t in ev if r == "LEAVE" and name(t) == "outer"]
    enter = [t for r, loc, _, t in ev if r == "ENTER" and name(t) == "outer"]
    if len(leave) != 1 or "(\"unfinished\" <" not in leave[0] or len(enter) != 1 or \
            "ATTRIBUTES" in enter[0]:
        fail("outer: enter %s, leave %s" % (enter, leave))


def step_counter_lanes(path, t0):
    """A step with its number, a counter, two overlapping ranges across threads on two
    lanes."""
    s = _Locs(path, t0)
    ev = events(path)
    steps = [(r, t - s.t0, x) for r, loc, t, x in ev if loc in s.at("steps")]
    lanes = s.at("ranges across threads") + s.at("ranges across threads 2")
    metric = [x for r, loc, t, x in ev if r == "METRIC" and loc in s.at("counters")]
    if [(r, t) for r, t, x in steps] != [("ENTER", 50), ("PARAMETER_UINT64", 50),
                                         ("LEAVE", 1100)] or \
            "Value: 3" not in steps[1][2] or name(steps[0][2]) != "step" or len(lanes) != 2 or \
            len(metric) != 1 or "DOUBLE; 1.5" not in metric[0]:
        fail("steps %s, lanes %s, metric %s" % (steps, lanes, metric))


if __name__ == "__main__":
    main(globals())
