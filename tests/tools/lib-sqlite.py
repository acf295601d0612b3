# lib-sqlite.py — the checks of func/t-sqlite.sh: SQL run with the sqlite3 shell on the
# database tprof-analyze --format sqlite wrote, against the --summary text (its tables
# parsed here) and the Chrome trace of the same profile.
#   python3 lib-sqlite.py CHECK DB OTHER [ARG...]
# CHECK: counts (OTHER: the Chrome trace), args (the Chrome trace), links, kernels (OTHER:
# the summary), api CATEGORY TITLE, busy gpu|neuroncore, messages, mpi-colls, nccl, steps.
# Prints what it compared as TAP comments; exits non-zero, saying why, on a difference.
import collections, json, re, subprocess, sys

def fail(msg):
    sys.exit(msg)

def sql(db, q):
    r = subprocess.run(["sqlite3", "-json", db, q], capture_output=True, text=True)
    if r.returncode:
        fail("sqlite3 %s: %s" % (q, r.stderr.strip()))
    return json.loads(r.stdout) if r.stdout.strip() else []

# ---- the summary text -------------------------------------------------------------------

UNIT = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
DUR = r"-?[\d.]+ (?:ns|us|ms|s)"

def dur(text):
    """A duration of the summary (fmt_dur) in ns, and how far the true value may be."""
    v, u = text.split()
    return float(v) * UNIT[u], 0.5 if u == "ns" else 0.0005 * UNIT[u] + 1e-6

def near(text, ns):
    v, tol = dur(text)
    return abs(v - ns) <= tol

def count(text):
    return int(text.replace(",", ""))

def sections(path):
    out = {}
    for block in open(path).read().split("\n\n"):
        lines = block.strip("\n").split("\n")
        out[lines[0]] = lines[1:]
    return out

def section(secs, title, prefix=False):
    for k, v in secs.items():
        if k == title or (prefix and k.startswith(title)):
            return v
    return None

TIME_ROW = re.compile(r"^\s*[\d.]+ %% +(%s) +([\d,]+) +(%s) +(%s) +(%s)  (.*)$" % (DUR, DUR, DUR, DUR))
BYTES = re.compile(r"^\s*(?:-|[\d.]+ [kMGT]?B) +(?:-|[\d.]+ [kMGT]?B)  (.*)$")

def time_table(secs, title):
    """{name: (total, calls, min, max)} of a time table (the bytes columns skipped)."""
    lines = section(secs, title)
    if lines is None:
        return None
    bytes_cols = "Bytes" in lines[0]
    out = {}
    for l in lines[1:]:
        m = TIME_ROW.match(l)
        if not m:
            fail("%s: row not understood: %r" % (title, l))
        name = m.group(6)
        if bytes_cols:
            b = BYTES.match(name)
            if not b:
                fail("%s: bytes not understood: %r" % (title, l))
            name = b.group(1)
        out[name] = (m.group(1), count(m.group(2)), m.group(4), m.group(5))
    return out

def compare_times(title, table, rows, minmax=True):
    """rows: {name: (total_ns, calls, min_ns, max_ns)} from SQL."""
    if table is None:
        fail("the summary has no %s table" % title)
    bad = []
    if set(table) != set(rows):
        bad.append("%s: names %s in the summary, %s in SQL" % (title, sorted(table), sorted(rows)))
    for name in set(table) & set(rows):
        t, r = table[name], rows[name]
        if t[1] != r[1] or not near(t[0], r[0]) or \
                (minmax and (not near(t[2], r[2]) or not near(t[3], r[3]))):
            bad.append("%s %s: summary %s, SQL %s" % (title, name, t, r))
    if bad:
        fail("\n".join(bad[:10]))
    print("# %s: %d rows agree (%s)" % (title, len(rows), ", ".join(
        "%s %d calls" % (n, rows[n][1]) for n in sorted(rows)[:4])))

# ---- the checks -------------------------------------------------------------------------

def chrome_events(path):
    with open(path) as f:
        return json.load(f)["traceEvents"]

def check_counts(db, chrome):
    ev = chrome_events(chrome)
    c = collections.Counter(e["ph"] for e in ev)
    got = sql(db, "SELECT (SELECT COUNT(*) FROM slices) AS X, (SELECT COUNT(*) FROM instants) AS i,"
                  " (SELECT COUNT(*) FROM async_slices) AS b, (SELECT COUNT(*) FROM counters) AS C,"
                  " (SELECT COUNT(*) FROM flows) AS s")[0]
    want = {"X": c["X"], "i": c["i"], "b": c["b"], "C": c["C"], "s": c["s"]}
    if got != want or c["s"] != c["f"]:
        fail("SQL %s, Chrome %s (flow ends %d)" % (got, want, c["f"]))
    print("# slices %(X)d, instants %(i)d, async %(b)d, counter samples %(C)d, flows %(s)d" % got)

def check_args(db, chrome):
    """Every slice's row: on the track, at the time, with the name and args Chrome has."""
    ev = chrome_events(chrome)
    def ns(x):
        return int(round(x * 1000))
    want = collections.Counter()
    for e in ev:
        if e["ph"] == "X":
            want[(e["pid"], e["tid"], ns(e["ts"]), ns(e["dur"]), e["name"], e.get("cat"),
                  json.dumps(e.get("args"), sort_keys=True))] += 1
    got = collections.Counter()
    for r in sql(db, "SELECT t.chrome_pid, t.chrome_tid, s.start_ns, s.dur_ns, s.name, s.category,"
                     " s.args FROM named_slices s JOIN tracks t ON t.id = s.track_id"):
        a = json.loads(r["args"]) if r["args"] is not None else None
        got[(r["chrome_pid"], r["chrome_tid"], r["start_ns"], r["dur_ns"], r["name"], r["category"],
             json.dumps(a, sort_keys=True))] += 1
    if got != want:
        extra, missing = got - want, want - got
        fail("slices only in SQL: %s\nonly in Chrome: %s" % (list(extra)[:3], list(missing)[:3]))
    print("# %d slices: same track, times, name, category and arguments as in Chrome" % sum(got.values()))

def check_links(db, _=None):
    r = sql(db, "SELECT"
                " (SELECT COUNT(*) FROM device_ops WHERE launch_thread_id IS NOT NULL) AS ops,"
                " (SELECT COUNT(*) FROM device_ops WHERE launch_thread_id IS NOT NULL"
                "   AND launch_slice_id IS NULL) AS unlinked,"
                " (SELECT COUNT(*) FROM device_ops d JOIN slices s ON s.id = d.launch_slice_id"
                "   JOIN tracks t ON t.id = s.track_id WHERE t.kind != 'thread'"
                "   OR t.thread_id != d.launch_thread_id OR s.start_ns != d.launch_ns"
                "   OR s.process_id != d.process_id OR s.start_ns > d.start_ns) AS wrong,"
                " (SELECT COUNT(*) FROM flows) AS flows,"
                " (SELECT COUNT(*) FROM flows WHERE from_slice_id IS NULL OR to_slice_id IS NULL)"
                "   AS loose,"
                " (SELECT COUNT(*) FROM flows f JOIN slices a ON a.id = f.from_slice_id"
                "   JOIN slices b ON b.id = f.to_slice_id WHERE a.track_id != f.from_track_id"
                "   OR b.track_id != f.to_track_id OR f.from_ns NOT BETWEEN a.start_ns AND a.end_ns"
                "   OR f.to_ns NOT BETWEEN b.start_ns AND b.end_ns) AS outside,"
                # a slice nested in the one found, around the same end: it was not the innermost
                " (SELECT COUNT(*) FROM flows f JOIN slices a ON a.id = f.from_slice_id"
                "   JOIN slices b ON b.id = f.to_slice_id WHERE EXISTS (SELECT 1 FROM slices x"
                "   WHERE (x.track_id = a.track_id AND x.id != a.id AND x.start_ns <= f.from_ns"
                "     AND x.end_ns >= f.from_ns AND x.depth > a.depth)"
                "   OR (x.track_id = b.track_id AND x.id != b.id AND x.start_ns <= f.to_ns"
                "     AND x.end_ns >= f.to_ns AND x.depth > b.depth))) AS outer")[0]
    if not r["ops"] and not r["flows"]:
        fail("no device operation with a launch and no flow: %s" % r)
    if r["unlinked"] or r["wrong"] or r["loose"] or r["outside"] or r["outer"]:
        fail("links: %s" % r)
    print("# %(ops)d device operations linked to their launching call, %(flows)d flows to their slices" % r)

def check_kernels(db, summary):
    rows = {r["name"]: (r["total_ns"], r["calls"], r["min_ns"], r["max_ns"])
            for r in sql(db, "SELECT * FROM kernel_summary")}
    compare_times("Kernels", time_table(sections(summary), "Kernels"), rows)

POLLS = """
WITH s AS (SELECT name, dur_ns, args FROM named_slices
           WHERE track_kind = 'thread' AND category = '%s'),
  plain AS (SELECT name, 1 AS calls, dur_ns AS ns, dur_ns AS mn, dur_ns AS mx FROM s
            WHERE json_extract(args, '$.polls') IS NULL),
  one AS (SELECT name, json_extract(args, '$.polls') AS calls,
            CAST(round(json_extract(args, '$."time in calls (us)"') * 1000) AS INTEGER) AS ns,
            NULL AS mn, NULL AS mx FROM s
          WHERE json_extract(args, '$.polls') IS NOT NULL AND json_type(args, '$.functions') IS NULL),
  many AS (SELECT f.key AS name, json_extract(f.value, '$.polls') AS calls,
             CAST(round(json_extract(f.value, '$."time in calls (us)"') * 1000) AS INTEGER) AS ns,
             NULL AS mn, NULL AS mx
           FROM s, json_each(s.args, '$.functions') f WHERE json_type(s.args, '$.functions') = 'object')
SELECT name, SUM(calls) AS calls, SUM(ns) AS total_ns, MIN(mn) AS min_ns, MAX(mx) AS max_ns,
  COUNT(mn) = COUNT(*) AS exact
FROM (SELECT * FROM plain UNION ALL SELECT * FROM one UNION ALL SELECT * FROM many) GROUP BY name
"""

def check_api(db, summary, category, title):
    """An API table: every call, a run of unsuccessful polls counted poll by poll."""
    res = sql(db, POLLS % category)
    rows = {r["name"]: (r["total_ns"], r["calls"], r["min_ns"], r["max_ns"]) for r in res}
    table = time_table(sections(summary), title)
    if table is None:
        fail("the summary has no %s table" % title)
    # min and max only where every call is a slice of its own (not in a run of polls)
    exact = {r["name"] for r in res if r["exact"]}
    compare_times(title, {k: v for k, v in table.items() if k in exact},
                  {k: v for k, v in rows.items() if k in exact})
    polled = {k: v for k, v in rows.items() if k not in exact}
    if polled or set(table) - exact:
        compare_times(title + " (polled functions: calls and time)",
                      {k: v for k, v in table.items() if k not in exact}, polled, minmax=False)

BUSY_ROW = re.compile(r"^\s*([\d.]+) %% +(%s) +([\d,]+)  (GPU|nc) (\d+) of (.*)$" % DUR)

def check_busy(db, summary, kind):
    title = "Devices: busy share" if kind == "gpu" else "NeuronCores: busy share"
    lines = section(sections(summary), title, prefix=True)
    if lines is None:
        fail("the summary has no %s table" % title)
    table = {}
    for l in lines[1:]:
        m = BUSY_ROW.match(l)
        if not m:
            fail("%s: row not understood: %r" % (title, l))
        table[(m.group(6), int(m.group(5)))] = (float(m.group(1)), m.group(2), count(m.group(3)))
    rows = {(r["label"], r["device"]): r for r in sql(db,
            "SELECT p.label, d.device, d.ops, d.busy_ns, d.busy_pct FROM device_busy d"
            " JOIN processes p ON p.id = d.process_id WHERE d.device_kind = '%s'" % kind)}
    bad = []
    if set(table) != set(rows):
        bad.append("devices %s in the summary, %s in SQL" % (sorted(table), sorted(rows)))
    for k in set(table) & set(rows):
        t, r = table[k], rows[k]
        if t[2] != r["ops"] or not near(t[1], r["busy_ns"]) or abs(t[0] - r["busy_pct"]) > 0.051:
            bad.append("%s: summary %s, SQL %s" % (k, t, r))
    if bad:
        fail("\n".join(bad[:10]))
    print("# %d devices: %s" % (len(rows), ", ".join("%s %d: %.1f %%" % (k[0][:20], k[1], rows[k]["busy_pct"])
                                                     for k in sorted(rows)[:4])))

BYTES_UNIT = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}

def bytes_near(text, b):
    v, u = text.split()
    v = float(v) * BYTES_UNIT[u]
    return abs(v - b) <= 0.005 * max(b, 1) + 0.5

def check_messages(db, summary):
    lines = section(sections(summary), "MPI messages")
    if lines is None:
        fail("the summary has no MPI messages")
    m = re.match(r"^\s*matched: +([\d,]+) messages, ([\d.]+ [kMGT]?B)", lines[0])
    if not m:
        fail("matched line not understood: %r" % lines[0])
    sizes = sql(db, "SELECT * FROM mpi_message_sizes ORDER BY bytes")
    n = sum(r["messages"] for r in sizes)
    b = sum(r["total_bytes"] for r in sizes)
    if n != count(m.group(1)) or not bytes_near(m.group(2), b) or \
            any(r["total_bytes"] != r["bytes"] * r["messages"] for r in sizes):
        fail("summary: %s messages, %s; SQL by size: %s" % (m.group(1), m.group(2), sizes))
    print("# %d messages, %d bytes, %d sizes (%s)" % (n, b, len(sizes), ", ".join(
        "%d x %d B" % (r["messages"], r["bytes"]) for r in sizes[:5])))

NOTE = re.compile(r"^\s+[a-z.]")   # "  incomplete: ...", "  ... 3 more"
COLL_ROW = re.compile(r"^\s*([\d,]+) +(?:[\d.]+ [kMGT]?B|0 B) +(%s) +(%s) +(?:-|[\d.]+ [kMGT]?B/s) +(%s)  (.*)$"
                      % (DUR, DUR, DUR))

def check_mpi_colls(db, summary):
    lines = section(sections(summary), "MPI collectives", prefix=True)
    if lines is None:
        fail("the summary has no MPI collectives table")
    table = {}
    for l in lines[1:]:
        if NOTE.match(l):
            continue
        m = COLL_ROW.match(l)
        if not m:
            fail("MPI collectives: row not understood: %r" % l)
        table[m.group(5)] = (count(m.group(1)), m.group(2), m.group(4))
    rows = {r["name"]: r for r in sql(db,
            "SELECT n.string AS name, COUNT(*) AS instances,"
            "  SUM(c.last_exit_ns - c.first_entry_ns) AS total_ns,"
            "  SUM((SELECT SUM(c.last_entry_ns - m.entry_ns) FROM collective_members m"
            "       WHERE m.collective_id = c.id)) AS wait_ns"
            " FROM collectives c JOIN strings n ON n.id = c.name_id WHERE c.runtime = 'mpi'"
            " GROUP BY c.name_id")}
    bad = []
    if set(table) != set(rows):
        bad.append("collectives %s in the summary, %s in SQL" % (sorted(table), sorted(rows)))
    for k in set(table) & set(rows):
        t, r = table[k], rows[k]
        if t[0] != r["instances"] or not near(t[1], r["total_ns"]) or not near(t[2], r["wait_ns"]):
            bad.append("%s: summary %s, SQL %s" % (k, t, r))
    if bad:
        fail("\n".join(bad[:10]))
    print("# %d MPI collectives agree (%s)" % (len(rows), ", ".join(
        "%s x%d" % (k, rows[k]["instances"]) for k in sorted(rows)[:4])))

NCCL_ROW = re.compile(r"^\s*([\d,]+) +(\d+) +(\d+) +(\S+) +(\S+) +(-|%s) +(-|%s) +(\S+) +(\S+) +(-|%s) +(-|%s)  "
                      r"(-|\d+ \(\d+/\d+\)) +(.*)$" % (DUR, DUR, DUR, DUR))

def gbps_near(text, v):
    if text == "-":
        return v is None
    return v is not None and abs(float(text) - v) <= 0.0006 * abs(v) + 0.00006

def check_nccl(db, summary):
    lines = section(sections(summary), "NCCL collectives", prefix=True)
    if lines is None:
        fail("the summary has no NCCL collectives table")
    table = {}
    for l in lines[1:]:
        if NOTE.match(l):
            continue
        m = NCCL_ROW.match(l)
        if not m:
            fail("NCCL collectives: row not understood: %r" % l)
        table[(m.group(13), int(m.group(2)), int(m.group(3)), m.group(4))] = m.groups()
    rows = {}
    for r in sql(db, "SELECT b.*, (SELECT AVG(c.last_entry_ns - c.first_entry_ns) FROM collectives c"
                     "   JOIN strings n ON n.id = c.name_id WHERE n.string = b.name"
                     "   AND c.alg_bytes = b.alg_bytes AND c.ranks = b.ranks AND c.count IS b.count"
                     "   AND (SELECT COUNT(entry_ns) FROM collective_members m"
                     "        WHERE m.collective_id = c.id) >= 2) AS wait_avg_ns"
                     " FROM nccl_bandwidth b"):
        cnt = "{:,}".format(r["count"]) if r["count"] is not None else "-"
        rows[(r["name"], r["ranks"], int(round(r["alg_bytes"])), cnt)] = r
    bad = []
    if set(table) != set(rows):
        bad.append("rows %s in the summary, %s in SQL" % (sorted(table), sorted(rows)))
    for k in set(table) & set(rows):
        t, r = table[k], rows[k]
        ok = count(t[0]) == r["calls"]
        if r["timed_parts"]:
            ok = ok and near(t[5], r["total_ns"]) and near(t[6], int(r["avg_ns"] + 0.5))
            ok = ok and gbps_near(t[7], r["algbw_GBps"]) and gbps_near(t[8], r["busbw_GBps"])
        if r["wait_avg_ns"] is not None:
            ok = ok and near(t[9], int(r["wait_avg_ns"]))
        if not ok:
            bad.append("%s: summary %s, SQL %s" % (k, t, r))
    if bad:
        fail("\n".join(bad[:10]))
    print("# %d NCCL rows agree: %s" % (len(rows), ", ".join(
        "%s %d ranks %d B busbw %.3f" % (k[0], k[1], k[2], rows[k]["busbw_GBps"] or 0)
        for k in sorted(rows)[:4])))

def check_steps(db, summary):
    lines = section(sections(summary), "Steps")
    if lines is None:
        fail("the summary has no Steps table")
    m = re.match(r"^\s*(\d+) +(%s) " % DUR, lines[1])
    r = sql(db, "SELECT COUNT(*) AS n, SUM(end_ns - start_ns) AS total FROM steps")[0]
    if not m or int(m.group(1)) != r["n"] or not near(m.group(2), r["total"]):
        fail("summary %r, SQL %s" % (lines[1], r))
    print("# %(n)d steps, %(total)d ns in all" % r)

CHECKS = {"counts": check_counts, "args": check_args, "links": check_links,
          "kernels": check_kernels, "api": check_api, "busy": check_busy,
          "messages": check_messages, "mpi-colls": check_mpi_colls, "nccl": check_nccl,
          "steps": check_steps}

if __name__ == "__main__":
    CHECKS[sys.argv[1]](*sys.argv[2:])
