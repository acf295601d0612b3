"""summary-json.py — the checks of func/t-summary-json.sh on the JSON summaries
(tprof-analyze --summary-format json) of the test programs' profiles, each check given the
JSON files it reads (and, for chrome-loads, a Chrome trace)."""
import json

from checklib import fail, main
from chrome_trace import load


def _load(path):
    with open(path) as f:
        return json.load(f)


def _holds(ok, what):
    """Fails saying which condition (its Python text) is not so."""
    if not ok:
        fail("not so: " + what)


def top_rows(full_path, top_path):
    """--top 2: the first two rows of each table, the others counted in rows_omitted."""
    full, top = _load(full_path), _load(top_path)
    for path in (["ranges"], ["marks"]):
        f, t = full, top
        for k in path:
            f, t = f[k], t[k]
        if (t["rows"] != f["rows"][:2] or t["rows_omitted"] != len(f["rows"]) - 2 or
                f["rows_omitted"]):
            fail("%s: --top 2 gives %d rows (%d omitted) of %d" % (
                path, len(t["rows"]), t["rows_omitted"], len(f["rows"])))


def steps_window(win_path, plain_path):
    """--steps 3:5: header.window is the window, exactly the three steps' time; null
    without."""
    d = _load(win_path)
    w, st = d["header"]["window"], d["steps"]
    if (w is None or w["spec"] != "steps 3 to 5" or
            w["length_ns"] != w["end_ns"] - w["start_ns"]):
        fail("window %s" % w)
    if (st["count"] != 3 or st["total_ns"] != w["length_ns"] or
            sorted(s["step"] for s in st["slowest"]) != [3, 4, 5]):
        fail("steps %s, window %s" % (st, w))
    if _load(plain_path)["header"]["window"] is not None:
        fail("a window without the option")


def has_rows(path, *tables):
    """Each table (a dotted path: nrt.models) has rows."""
    d = _load(path)
    for table in tables:
        t = d
        for k in table.split("."):
            t = t[k]
        _holds(t["rows"], "d%s[\"rows\"]" % "".join('["%s"]' % k for k in table.split(".")))


def killed_from_spool(path):
    """The killed process is flagged read from its spool, without a final flush."""
    d = _load(path)
    _holds([(p["final_flush"], p["from_spool"]) for p in d["header"]["process_list"]] ==
           [(False, True)],
           '[(p["final_flush"], p["from_spool"]) for p in d["header"]["process_list"]] == '
           '[(False, True)]')


def damaged_counted(path):
    """The damaged chunks and records are counted."""
    s = _load(path)["header"]["skipped"]
    _holds(s["damaged_chunks"] >= 1 and s["damaged_records"] <= s["total"],
           'd["header"]["skipped"]["damaged_chunks"] >= 1 and '
           'd["header"]["skipped"]["damaged_records"] <= d["header"]["skipped"]["total"]')


def untimed_dropped(path):
    """The 300 launches without events are dropped by reason."""
    dr = _load(path)["header"]["dropped"]
    _holds(dr["device_untimed"] == dr["total"] == 300,
           'd["header"]["dropped"]["device_untimed"] == d["header"]["dropped"]["total"] == 300')


def mpi_ranks(path):
    """Four ranks, and messages matched."""
    d = _load(path)
    _holds(len(d["mpi"]["ranks"]["rows"]) == 4 and d["mpi"]["messages"]["matched"],
           'len(d["mpi"]["ranks"]["rows"]) == 4 and d["mpi"]["messages"]["matched"]')


def clock_applied(path):
    """A clock offset applied."""
    d = _load(path)
    _holds(any(r["applied"] for r in d["mpi"]["clock_alignment"]["rows"]),
           'any(r["applied"] for r in d["mpi"]["clock_alignment"]["rows"])')


def nccl_incomplete(path):
    """An incomplete instance and a group (type null)."""
    c = _load(path)["nccl"]["collectives"]
    _holds(c["incomplete"] and any(r["incomplete"] for r in c["rows"]) and
           any(r["type"] is None for r in c["rows"]),
           'd["nccl"]["collectives"]["incomplete"] and '
           'any(r["incomplete"] for r in d["nccl"]["collectives"]["rows"]) and '
           'any(r["type"] is None for r in d["nccl"]["collectives"]["rows"])')


def five_neuroncores(path):
    d = _load(path)
    _holds(len(d["nrt"]["neuroncores"]["rows"]) == 5,
           'len(d["nrt"]["neuroncores"]["rows"]) == 5')


def adjusted_spans(path):
    """The adjusted device spans in the header."""
    d = _load(path)
    want = {"after_previous": 2, "after_previous_max_ns": 25000, "before_launch": 2,
            "before_launch_max_ns": 5000}
    _holds(d["header"]["adjusted"] == want,
           'd["header"]["adjusted"] == {"after_previous": 2, "after_previous_max_ns": 25000, '
           '"before_launch": 2, "before_launch_max_ns": 5000}')


def system_counts(path):
    """Four CPU samples, three lost."""
    d = _load(path)
    _holds(d["system"]["cpu_functions"]["samples"] == 4 and
           d["header"]["dropped"]["samples_lost"] == 3,
           'd["system"]["cpu_functions"]["samples"] == 4 and '
           'd["header"]["dropped"]["samples_lost"] == 3')


def system_top(path):
    d = _load(path)
    _holds(d["system"]["cpu_functions"]["rows_omitted"] > 0,
           'd["system"]["cpu_functions"]["rows_omitted"] > 0')


def format_version(path):
    d = _load(path)
    _holds((d["format"], d["version"]) == ("tprof-summary", 1),
           '(d["format"], d["version"]) == ("tprof-summary", 1)')


def chrome_loads(path):
    """The file is a Chrome trace (chrome_trace.load reads it)."""
    load(path)


main(globals())
