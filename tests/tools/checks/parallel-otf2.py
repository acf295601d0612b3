"""parallel-otf2.py — the checks of func/t-parallel-otf2.sh on otf2-print's listings (OUT, and
OUT.defs beside it) of an archive the serial analyzer wrote and of one K analysis processes
wrote together.

    same-archive SERIAL PARALLEL   the same locations, named alike, each with the same events
                                   in the same order, and the same definitions, whatever
                                   their numbers (refs and location ids are the writers'; a
                                   request id is unique on its location only; an NCCL
                                   instance's id is unique in the job, the analysis process
                                   that matched it numbering its own)
"""
import collections
import importlib
import re

from checklib import fail, main

otf2 = importlib.import_module("lib-otf2")
REF = re.compile(r" <\d+>")
REQ = re.compile(r"Request: (\d+)")
INSTANCE = re.compile(r'\("nccl_instance"; UINT64; \d+\)')
SETS = {"STRING", "REGION", "ATTRIBUTE", "METRIC_MEMBER", "METRIC_CLASS",
        "METRIC_CLASS_RECORDER", "PARAMETER"}


def _defs(path):
    """({location id: name}, [definitions in order], {kind: sorted definitions}), refs out."""
    d = otf2.defs(path + ".defs")
    names = {i: otf2.name(t) for k, i, t in d if k == "LOCATION"}
    order, sets = [], collections.defaultdict(list)
    for kind, ident, text in d:
        text = REF.sub("", text)
        if kind == "GROUP" and "COMM_LOCATIONS" in text:
            head, _, members = text.partition("Members: ")
            text = head + "Members: " + "; ".join(names.get(m.strip(), m.strip())
                                                  for m in members.split(","))
        if kind == "METRIC_CLASS_RECORDER":
            text = re.sub(r"Recorder: (\d+)", lambda m: "Recorder: " + names.get(m.group(1), "?"),
                          text)
        if kind in SETS:
            sets[kind].append(text)
        elif kind == "LOCATION":
            order.append((kind, text))
        else:
            order.append((kind, ident, text))
    return names, order, {k: sorted(v) for k, v in sets.items()}


def _events(path, names):
    """{location name: [(record, time, text)]}, refs out, request ids renumbered."""
    per = collections.defaultdict(list)
    for rec, loc, t, text in otf2.events(path):
        name = names.get(str(loc), "?%d" % loc)
        text = INSTANCE.sub('("nccl_instance"; UINT64; id)', REF.sub("", text))
        per[name].append((rec, t, text))
    for name, ev in per.items():
        seen = {}
        per[name] = [(r, t, REQ.sub(lambda m: "Request: r%d" % seen.setdefault(m.group(1), len(seen)), x))
                     for r, t, x in ev]
    return per


def same_archive(serial, parallel):
    ns, os_, ss = _defs(serial)
    np_, op, sp = _defs(parallel)
    if os_ != op:
        diff = next(((a, b) for a, b in zip(os_, op) if a != b), (len(os_), len(op)))
        fail("definitions differ: %s" % (diff,))
    for k in set(ss) | set(sp):
        if ss.get(k) != sp.get(k):
            fail("%s definitions differ: %s" % (k, sorted(set(ss.get(k, [])) ^ set(sp.get(k, [])))[:4]))
    es, ep = _events(serial, ns), _events(parallel, np_)
    if set(es) != set(ep):
        fail("locations with events differ: %s" % sorted(set(es) ^ set(ep))[:6])
    for loc in es:
        if es[loc] != ep[loc]:
            diff = next(((a, b) for a, b in zip(es[loc], ep[loc]) if a != b), None)
            fail("%s: %d events against %d; first difference %s" % (loc, len(es[loc]), len(ep[loc]), diff))
    if not es:
        fail("no events")


main(globals())
