"""summary-ranks.py — the checks of func/t-summary-ranks.sh: a summary of many ranks in text
shows one line for its processes and three rows of each per-rank table (the least, median and
most of its main column, as the JSON's "spread" names them, every row of which JSON keeps);
with --ranks all, every process and row."""
import json
import re

from checklib import fail, main


def _picks(rows, key):
    """The least, median and most rows of a table by `key` (a function of the row): the first
    of equal values for the least and the most; the median the ((n - 1) // 2)-th in order of
    value, then of row."""
    vals = [key(r) for r in rows]
    order = sorted(range(len(rows)), key=lambda i: (vals[i], i))
    return (vals.index(min(vals)), order[(len(rows) - 1) // 2], vals.index(max(vals)))


def _section(text, title):
    lines = text.split("\n")
    at = next((i for i, l in enumerate(lines) if l.startswith(title)), None)
    if at is None:
        fail("no %r in the text" % title)
    out = []
    for l in lines[at + 1:]:
        if not l.strip():
            break
        out.append(l)
    return out


def collapsed(summary_json, text_file, ranks, hosts):
    """The header's line for all processes; each per-rank table's three labeled rows are
    those "spread" names, which are the least, median and most of the JSON rows."""
    ranks, hosts = int(ranks), int(hosts)
    with open(summary_json) as f:
        d = json.load(f)
    with open(text_file) as f:
        text = f.read()
    want = "    %d processes, ranks 0-%d, on %d hosts (--ranks all lists each)" % (
        ranks, ranks - 1, hosts)
    if want not in text.split("\n"):
        fail("no line %r in the header" % want)
    if re.search(r"^    \d+  rank ", text, re.M):
        fail("the header still lists processes")
    if len(d["header"]["process_list"]) != ranks:
        fail("JSON lists %d processes, not %d" % (len(d["header"]["process_list"]), ranks))
    clocks = d["mpi"]["clock_alignment"]
    for title, table, key, fmt, n, nrows in (
            ("Devices:", d["devices"], lambda r: r["busy_ns"], lambda r: "GPU %d of rank %d " % (
                r["device"], r["process"] - 1), 5, ranks),
            ("MPI by rank:", d["mpi"]["ranks"], lambda r: r["time_ns"],
             lambda r: "%8d " % r["rank"], 6, ranks),
            # ranks past node000, at MPI_Init and MPI_Finalize
            ("Clock alignment:", clocks, lambda r: abs(r["offset_ns"]),
             lambda r: "%8d %-13s %+16d " % (r["rank"], r["measured_at"], r["offset_ns"]), 5,
             2 * (ranks - 8))):
        rows = table["rows"]
        if len(rows) != nrows:
            fail("%s JSON has %d rows, not %d" % (title, len(rows), nrows))
        sp = table["spread"]
        picks = _picks(rows, key)
        if (sp["least"], sp["median"], sp["most"]) != picks:
            fail("%s spread %s, not rows %s" % (title, sp, picks))
        lines = [l for l in _section(text, title) if re.match(r"^(least|median|most) ", l)]
        if len(lines) != 3 or len(_section(text, title)) != n:   # MPI: and the imbalance
            fail("%s text is not a note, a header and three rows: %s" % (
                title, _section(text, title)))
        for label, line, i in zip(("least", "median", "most"), lines, picks):
            if not line.startswith(label) or fmt(rows[i]) not in line:
                fail("%s %r is not row %d (%s)" % (title, line, i, rows[i]))
    gaps = _section(text, "Idle gaps between device work")
    if not gaps[0].split()[1:] == ["All", "GPUs", "total", "Most", "on"]:
        fail("idle gaps' columns: %r" % gaps[0])
    for line, row in zip(gaps[1:], d["idle_gaps"]["rows"]):
        count = sum(x["count"] for x in row["devices"])
        if "{:,}".format(count) not in line.split():
            fail("idle gaps %r: not %d in all" % (line, count))


def every(text_file, ranks):
    """--ranks all: every process listed, every device and rank a row."""
    ranks = int(ranks)
    with open(text_file) as f:
        text = f.read()
    listed = re.findall(r"^ +\d+  rank \d+ ", text, re.M)
    if len(listed) != ranks:
        fail("%d processes listed, not %d" % (len(listed), ranks))
    if len(_section(text, "Devices:")) != ranks + 1:
        fail("devices: not %d rows" % ranks)
    if len(_section(text, "MPI by rank:")) != ranks + 2:   # and the imbalance line
        fail("MPI by rank: not %d rows" % ranks)
    if len(_section(text, "Clock alignment:")) != 2 * (ranks - 8) + 1:
        fail("clock alignment: not %d rows" % (2 * (ranks - 8)))


def odd(text_file):
    """A damaged rank is listed under the line for all processes."""
    with open(text_file) as f:
        text = f.read()
    if not re.search(r"^    1 without a final flush, with records lost or not recorded as "
                     r"usual:\n +\d+  .*\(node000, pid 10005\).*no final flush", text, re.M):
        fail("the damaged rank is not listed:\n%s" % text[:1200])


if __name__ == "__main__":
    main(globals())
