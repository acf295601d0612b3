"""lib-nccl-analyze.py — helpers for the checks of the NCCL analyzer tests (func/t-nccl-ranks.sh,
func/t-nccl-synth.sh): what tprof-analyze makes of NCCL traces, in the Chrome trace (d: as
chrome_trace.load reads it) and the text summary (text).  A checker imports it (importlib.import_module("lib-nccl-analyze")).

    spans(d)          collective device spans ("X", cat "collective")
    calls(d)          NCCL calls ("X", cat "nccl")
    flows(d, name)    ({id: "s" event}, {id: "f" event}) of the NCCL flows with that name
    within(e, t)      does slice e contain time t (ns)?
    instances(d)      {nccl_instance: [spans]}
    has_coll(v)       do the spans v of an instance hold a collective (not only sends)?
    launch_ok(d)      problems with the launch arrows of the collective spans
    sum_rows(text)    the rows of the summary's "NCCL collectives" table, as dicts
    bw_check(d, text) problems found recomputing each row's bandwidth and wait from the
                      spans' recorded times and arguments (nccl-tests' formulas)
"""
import collections

from checklib import main  # first: it puts tests/tools on the path

from chrome_trace import events, ns


def spans(d):
    return [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "collective"]


def calls(d):
    return [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "nccl"]


def flows(d, name):
    cat = "launch" if name == "launch" else "nccl"   # MPI collectives are "collective" too
    s = {e["id"]: e for e in events(d)
         if e["ph"] == "s" and e["name"] == name and e["cat"] == cat}
    f = {e["id"]: e for e in events(d)
         if e["ph"] == "f" and e["name"] == name and e["cat"] == cat}
    return s, f


def within(e, t):
    return ns(e["ts"]) <= t <= ns(e["ts"]) + ns(e["dur"])


def instances(d):
    out = collections.defaultdict(list)
    for e in spans(d):
        if "nccl_instance" in e["args"]:
            out[e["args"]["nccl_instance"]].append(e)
    return out


def has_coll(v):
    return any(o["op"] not in ("Send", "Recv") for e in v
               for o in (e["args"]["ops"] if "ops" in e["args"] else [e["args"]]))


def launch_ok(d):
    bad = []
    s, f = flows(d, "launch")
    by = collections.defaultdict(list)
    for e in events(d):
        if e["ph"] == "X":
            by[(e["pid"], e["tid"])].append(e)
    for e in spans(d):
        c = e["args"].get("correlation")
        ends = [x for x in f.values()
                if (x["pid"], x["tid"]) == (e["pid"], e["tid"]) and within(e, ns(x["ts"]))]
        if not ends:
            bad.append("span %s at %s: no launch arrow ends in it" % (e["name"], e["ts"]))
            continue
        st = s.get(ends[0]["id"])
        if st is None:
            bad.append("span %s: arrow %s has no start" % (e["name"], ends[0]["id"]))
            continue
        src = [x for x in by[(st["pid"], st["tid"])]
               if x.get("cat") == "nccl" and within(x, ns(st["ts"]))]
        if not src or src[0]["args"].get("correlation") != c:
            bad.append("span %s: arrow starts in %s, not the call with correlation %s" %
                       (e["name"], src and src[0]["name"], c))
        elif src[0]["name"] not in ("ncclGroupEnd",) and e["name"].startswith("ncclGroup ("):
            bad.append("group span %s launched by %s" % (e["name"], src[0]["name"]))
    return bad


FACTOR = {"AllReduce": lambda n: 2.0 * (n - 1) / n, "ReduceScatter": lambda n: (n - 1) / n,
          "AllGather": lambda n: (n - 1) / n, "Broadcast": lambda n: 1.0,
          "Reduce": lambda n: 1.0, "AlltoAll": lambda n: (n - 1) / n,
          "Gather": lambda n: (n - 1) / n, "Scatter": lambda n: (n - 1) / n,
          "AllToAllv": lambda n: (n - 1) / n}
MULT_N = ("ReduceScatter", "AllGather", "AlltoAll", "Gather", "Scatter")


def alg_bus(ops, n):
    a = b = sent = recvd = 0.0
    for o in ops:
        if o["op"] == "Send":
            sent += o["bytes"]
        elif o["op"] == "Recv":
            recvd += o["bytes"]
        else:
            s = o["bytes"] * (n if o["op"] in MULT_N else 1)
            a += s
            b += s * FACTOR[o["op"]](n)
    p = max(sent, recvd)
    return a + p, b + p


def sum_rows(text):
    rows, on = [], False
    for line in text.splitlines():
        if line.startswith("NCCL collectives"):
            on = True
            continue
        if on and line.strip().startswith("Calls"):
            continue
        if on and (not line.strip() or line.startswith("  instances")):
            break
        if on and not line.strip().startswith("of which"):
            f = line.split()
            i = [5]

            def take(n=1):
                v = " ".join(f[i[0]:i[0] + n])
                i[0] += n
                return v

            def dur():
                return take(1 if f[i[0]] == "-" else 2)
            r = {"calls": int(f[0].replace(",", "")), "ranks": int(f[1]), "size": int(f[2]),
                 "count": f[3].replace(",", ""), "type": f[4]}
            r["total"] = dur()
            r["avg"] = dur()
            r["algbw"] = take()
            r["busbw"] = take()
            r["wait_avg"] = dur()
            r["wait_max"] = dur()
            r["last"] = dur()
            r["name"] = " ".join(f[i[0]:])
            rows.append(r)
    return rows


def close(printed, value):
    if printed == "-":
        return False
    dec = len(printed.split(".")[1]) if "." in printed else 0
    return abs(float(printed) - value) <= 0.5 * 10 ** -dec * 1.001 + 1e-12


def dur_text(v):
    if abs(v) < 1e3:
        return "%d ns" % v
    if abs(v) < 1e6:
        return "%.3f us" % (v / 1e3)
    if abs(v) < 1e9:
        return "%.3f ms" % (v / 1e6)
    return "%.3f s" % (v / 1e9)


def bw_check(d, text, exact_wait=True):
    bad = []
    rows = sum_rows(text)
    if not rows:
        return ["no NCCL collectives table"]
    groups = collections.defaultdict(list)
    for e in spans(d):
        a = e["args"]
        if "nccl_instance" not in a:
            continue
        ops = a["ops"] if "ops" in a else [a]
        al, bu = alg_bus(ops, a["nranks"])
        if "ops" in a:
            key = (e["name"], int(round(al)), a["nranks"], "-", "-")
        else:
            key = (a["op"], int(round(al)), a["nranks"], a["dtype"], str(a["count"]))
        groups[key].append((e, al, bu))
    for r in rows:
        name = r["name"]
        key = (name, r["size"], r["ranks"], r["type"], r["count"])
        if key not in groups:
            bad.append("row %s: no spans of that size and ranks" % r)
            continue
        g = groups[key]
        avg = sum(ns(e["dur"]) for e, _, _ in g) / len(g)
        al, bu = g[0][1], g[0][2]
        if not close(r["algbw"], al / avg) or not close(r["busbw"], bu / avg):
            bad.append("row %s: algbw %s busbw %s, recomputed %.6f %.6f from %d spans" %
                       (name, r["algbw"], r["busbw"], al / avg, bu / avg, len(g)))
        inst = collections.defaultdict(list)
        for e, _, _ in g:
            inst[e["args"]["nccl_instance"]].append(e)
        waits = [max(ns(e["args"]["entered_after_first_us"]) for e in v)
                 for v in inst.values()
                 if all("entered_after_first_us" in e["args"] for e in v) and len(v) > 1]
        if waits and exact_wait:
            wa = dur_text(sum(waits) // len(waits))
            wm = dur_text(max(waits))
            if r["wait_avg"] != wa or r["wait_max"] != wm:
                bad.append("row %s: wait %s / %s, recomputed %s / %s" %
                           (name, r["wait_avg"], r["wait_max"], wa, wm))
    return bad


if __name__ == "__main__":
    main(globals())
