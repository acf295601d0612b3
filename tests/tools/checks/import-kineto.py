"""import-kineto.py — the checks of func/t-import-kineto.sh on what tprof-analyze --import
made of Kineto traces (those tools/mk-kineto-trace.py writes, with WANT, the JSON of what each
holds, and two real ones): Chrome traces, what tools/pftrace.py said of the Perfetto ones (its
JSON), what otf2-print printed, and the analyzer's -v messages.  arrow-count and want-arrows
are not checks: they print a number the test compares."""
import json
import re
import sys

from checklib import fail, main
from chrome_trace import events, load


def _arrows(ev):
    """The flow ids with both ends among the events EV."""
    return {e["id"] for e in ev if e["ph"] == "s"} & {e["id"] for e in ev if e["ph"] == "f"}


def arrow_count(trace):
    """Prints the number of flow ids with both ends in a Chrome trace."""
    print(len(_arrows(events(load(trace)))))


def want_arrows(want):
    """Prints the number of arrows a generated trace holds, from its WANT file."""
    print(json.load(open(want))["arrows"])


def perfetto_flows(pf_json, want):
    """The Perfetto trace holds WANT flows (as tools/pftrace.py counted them)."""
    got = json.load(open(pf_json))["flows"]
    if got != int(want):
        fail("%d flows" % got)


def otf2_attributes(otf2_txt):
    """OTF2: keys in another order keep their names and values; a key given twice is "k" and
    "k (2)"."""
    t = open(otf2_txt).read()

    def vals(line):
        return dict((k, v) for k, v in re.findall(r"\(\"([^\"]+)\" <\d+>; \w+; ([^)]*)\)", line))
    lines = [vals(line) for line in t.splitlines() if "ADDITIONAL ATTRIBUTES" in line]
    first = [a for a in lines if a.get("alpha") == "1" and a.get("beta") == "2"]
    second = [a for a in lines if a.get("beta") == "3" and a.get("alpha") == "4"]
    twice = [a for a in lines if a.get("k") == "1" and a.get("k (2)") == "2"]
    bad = [a for a in lines
           if "alpha" in a and (a["alpha"], a.get("beta")) not in (("1", "2"), ("4", "3"))]
    if not (first and second and twice and not bad):
        fail("alpha/beta %s %s, k twice %s, misnamed %s" % (first[:1], second[:1], twice[:1],
                                                          bad[:2]))


def verbose_counts(err, want):
    """-v counts the flow ends with no start, the starts never ended and the args left out."""
    w = json.load(open(want))
    t = open(err).read()
    need = ["import: %d flow ends (t, f) with no start before them: skipped" % w["flow_alone"],
            "import: %d flow starts (s, t) never ended: skipped" % w["flow_open"],
            "import: %d args of more values than an item shows (150)" % w["rounds"]]
    miss = [n for n in need if n not in t]
    if miss:
        fail("-v lacks %s" % miss)


def args_cut(trace):
    """Args of more values than an item shows: the value that does not fit left out whole,
    the others kept, the item says so."""
    ev = events(load(trace))
    cut = [e for e in ev if e["ph"] == "X" and "args cut" in e.get("args", {})]
    kept = all("Input Dims" not in e["args"] and len(e["args"]["Concrete Inputs"]) == 40
               for e in cut)
    if not (len(cut) == 3 and kept):
        fail("%d items cut: %s" % (len(cut), cut[:1]))


def alexnet_flows(pf_json):
    """AlexNet: 139 flows in Perfetto."""
    n = json.load(open(pf_json))["flows"]
    if n != 139:
        fail("%d flows in Perfetto, not 139" % n)


def perfetto_as_chrome(pf_json, trace):
    """The Perfetto trace's slices, instants and flows (as tools/pftrace.py check counted
    them) are as in the Chrome trace."""
    p = json.load(open(pf_json))
    ev = events(load(trace))
    c = {k: sum(1 for e in ev if e["ph"] == k) for k in "Xsi"}
    s = _arrows(ev)
    if (p["slices"], p["flows"], p["instants"]) != (c["X"], len(s), c["i"]):
        fail("Perfetto %s, Chrome %s, %d arrows" % (p, c, len(s)))


main(globals())
