"""parallel-otf2.py — the checks of func/t-parallel-otf2.sh on otf2-print's listings (OUT, and
OUT.defs beside it) of an archive the serial analyzer wrote and of one K analysis processes
wrote together.

    same-archive SERIAL PARALLEL   the same locations, named alike, each with the same events
                                   in the same order, and the same definitions, whatever
                                   their numbers (refs and location ids are the writers'; a
                                   request id or an I/O operation's matching id is unique
                                   on its location only; an NCCL
                                   instance's id is unique in the job, the analysis process
                                   that matched it numbering its own); a one-sided
                                   window or an I/O handle named in an event stands for its
                                   definition (its communicator, its file), and the locations
                                   that share each handle are the same; a calling
                                   context stands for its stack of regions, a metric
                                   class for its members
"""
import collections
import importlib
import re

from checklib import fail, main

otf2 = importlib.import_module("lib-otf2")
REF = re.compile(r" <\d+>")
REQ = re.compile(r"(?<!Bytes )(Request|Matching Id): (\d+)")
INSTANCE = re.compile(r'\("nccl_instance"; UINT64; \d+\)')
WINDOW = re.compile(r'Window: "[^"]*" <(\d+)>')
HANDLE = re.compile(r'Handle: "[^"]*" <(\d+)>')
CONTEXT = re.compile(r'Calling Context: "[^"]*" <(\d+)>')
METRIC = re.compile(r'^Metric: (\d+),')
SETS = {"STRING", "REGION", "ATTRIBUTE", "METRIC_MEMBER", "METRIC_CLASS",
        "METRIC_CLASS_RECORDER", "PARAMETER", "RMA_WIN", "IO_HANDLE", "IO_REGULAR_FILE",
        "CALLING_CONTEXT"}


def _contexts(d):
    """{calling context ref: its stack of regions, outermost first}."""
    own = {}
    for kind, ident, text in d:
        if kind == "CALLING_CONTEXT":
            m = re.match(r'Region: "([^"]*)" <\d+>.*Parent: (?:"[^"]*" <(\d+)>|UNDEFINED)', text)
            own[ident] = (m.group(1), m.group(2)) if m else (text, None)
    paths = {}

    def path(i):
        if i not in paths:
            name, parent = own[i]
            paths[i] = (path(parent) + " > " if parent in own else "") + name
        return paths[i]
    return {i: path(i) for i in own}


def _defs(path):
    """({location id: name}, [definitions in order], {kind: sorted definitions},
    {window ref: its definition}), refs out."""
    d = otf2.defs(path + ".defs")
    names = {i: otf2.name(t) for k, i, t in d if k == "LOCATION"}
    windows = {i: REF.sub("", t) for k, i, t in d if k in ("RMA_WIN", "IO_HANDLE")}
    classes = {i: REF.sub("", t) for k, i, t in d if k == "METRIC_CLASS"}
    contexts = _contexts(d)
    windows.update({"context " + i: p for i, p in contexts.items()})
    windows.update({"class " + i: c for i, c in classes.items()})
    order, sets = [], collections.defaultdict(list)
    for kind, ident, text in d:
        text = REF.sub("", text)
        if kind == "CALLING_CONTEXT":
            text = contexts[ident]
        if kind == "GROUP" and "COMM_LOCATIONS" in text:
            head, _, members = text.partition("Members: ")
            text = head + "Members: " + "; ".join(names.get(m.strip(), m.strip())
                                                  for m in members.split(","))
        if kind == "METRIC_CLASS_RECORDER":
            text = re.sub(r"Recorder: (\d+)", lambda m: "Recorder: " + names.get(m.group(1), "?"),
                          text)
            text = re.sub(r"Class: (\d+)", lambda m: "Class: (%s)" % classes.get(m.group(1), "?"),
                          text)
        if kind in SETS:
            sets[kind].append(text)
        elif kind == "LOCATION":
            order.append((kind, text))
        else:
            order.append((kind, ident, text))
    return names, order, {k: sorted(v) for k, v in sets.items()}, windows


def _events(path, names, defs):
    """({location name: [(record, time, text)]}, refs out, request ids renumbered; the sets
    of locations that share an I/O handle)."""
    per = collections.defaultdict(list)
    users = collections.defaultdict(set)
    for rec, loc, t, text in otf2.events(path):
        name = names.get(str(loc), "?%d" % loc)
        for m in HANDLE.finditer(text):
            users[m.group(1)].add(name)
        text = WINDOW.sub(lambda m: "Window: (%s)" % defs.get(m.group(1), "?"), text)
        text = HANDLE.sub(lambda m: "Handle: (%s)" % defs.get(m.group(1), "?"), text)
        text = CONTEXT.sub(lambda m: "Calling Context: (%s)" % defs.get("context " + m.group(1), "?"),
                           text)
        if rec == "METRIC":
            text = METRIC.sub(lambda m: "Metric: (%s)," % defs.get("class " + m.group(1), "?"), text)
        text = INSTANCE.sub('("nccl_instance"; UINT64; id)', REF.sub("", text))
        per[name].append((rec, t, text))
    for name, ev in per.items():
        seen = {}
        per[name] = [(r, t, REQ.sub(lambda m: "%s: r%d" % (m.group(1), seen.setdefault(m.groups(), len(seen))), x))
                     for r, t, x in ev]
    return per, sorted(sorted(u) for u in users.values())


def same_archive(serial, parallel):
    ns, os_, ss, ws = _defs(serial)
    np_, op, sp, wp = _defs(parallel)
    if os_ != op:
        diff = next(((a, b) for a, b in zip(os_, op) if a != b), (len(os_), len(op)))
        fail("definitions differ: %s" % (diff,))
    for k in set(ss) | set(sp):
        if ss.get(k) != sp.get(k):
            fail("%s definitions differ: %s" % (k, sorted(set(ss.get(k, [])) ^ set(sp.get(k, [])))[:4]))
    (es, hs), (ep, hp) = _events(serial, ns, ws), _events(parallel, np_, wp)
    if hs != hp:
        fail("I/O handles shared by other locations: %s against %s" % (hs[:3], hp[:3]))
    if set(es) != set(ep):
        fail("locations with events differ: %s" % sorted(set(es) ^ set(ep))[:6])
    for loc in es:
        if es[loc] != ep[loc]:
            diff = next(((a, b) for a, b in zip(es[loc], ep[loc]) if a != b), None)
            fail("%s: %d events against %d; first difference %s" % (loc, len(es[loc]), len(ep[loc]), diff))
    if not es:
        fail("no events")


main(globals())
