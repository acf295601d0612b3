# summary-compare.py — checks tprof-analyze's JSON summary (--summary-format json) against its
# text summary of the same profile and options, for func/t-summary-json.sh.
#
#   summary-compare.py TEXT JSON     every line of the text, in order, is what the JSON says
#                                    it must be: each number within the text's printed
#                                    precision (1.234 ms: +-0.5 us; 1,234: exactly), each name
#                                    exactly, each "-" a null, no line more or less; the JSON
#                                    has exactly the documented keys, with their types
#   summary-compare.py --doc DOC     every key of the schema below is named in DOC
#
# The expected text is built from the JSON alone, line by line: a line is a template of
# literals ("=words") and keys of the JSON object it describes; how a key's text is read
# follows from its unit, in its name (_ns: 1.234 ms, _pct: 12.5 %, bytes: 1,234 or 1.23 MB,
# _Bps: 1.23 MB/s, others plain numbers).
import json
import re
import sys
import time

# ---- the schema: every key, its type ------------------------------------------------------
I, R, S, B = "int", "real", "str", "bool"


def opt(t):
    return ("null", t)


TIME_ROW = {"total_pct": R, "time_ns": I, "calls": I, "avg_ns": I, "min_ns": I, "max_ns": I,
            "name": S}
TIME_BYTES_ROW = dict(TIME_ROW, bytes=opt(I), avg_size_bytes=opt(R))


# A per-rank table's least, median and most rows (indexes into its rows).
SPREAD = {"by": S, "least": opt(I), "median": opt(I), "most": opt(I)}


def table(row, **more):
    return dict({"rows": [row], "rows_omitted": I}, **more)


THREAD_WHO = {"process": I, "tid": I, "thread": S, "process_label": S}
THREAD_ROW = dict({"samples": I, "share_pct": R}, **THREAD_WHO)
STATES = {k: I for k in ("running_ns", "runnable_ns", "sleeping_ns", "blocked_ns", "stopped_ns",
                         "off_cpu_ns")}


DROPPED = {"total": I, "max_events": I, "no_buffer": I, "stopped": I, "device_untimed": I,
           "samples_lost": I, "reentered": I, "no_files": I}

SCHEMA = {
    "format": S, "version": I, "dir": S,
    "header": {
        "jobs": [{"id": opt(S), "start_unix_ns": I, "start_utc": S, "processes": I,
                  "command": opt(S)}],
        "jobs_in_dir": I, "jobs_not_analyzed": I,
        "wall_time_ns": I, "trace_start_unix_ns": I, "dated": B, "trace_start_utc": S,
        "window": opt({"spec": S, "start_ns": I, "end_ns": I, "length_ns": I}),
        "capture": opt({"recorded_ns": I, "windows": I, "opened_by": S, "closed_by": S}),
        "processes": I, "threads": I, "events": I,
        "process_list": [{"index": I, "label": S, "rank": opt(I), "final_flush": B,
                          "from_spool": B, "live": B, "system": B, "sampled_only": B, "pid": I,
                          "records": I, "imported": [{"file": S}],
                          "dropped": dict(DROPPED, threads=[dict(DROPPED, stream=opt(I), tid=I,
                                                                 name=S)],
                                          process_stream=DROPPED, unattributed=DROPPED)}],
        "lost_processes": [{"pid": I, "host": S, "ppid": opt(I), "known": B, "marker": S,
                            "records_lost": opt(I),
                            "dropped": dict(DROPPED, threads=[dict(DROPPED, tid=I)])}],
        "dropped": DROPPED,
        "cut": {"total": I, "begin_dropped": I, "end_dropped": I, "steps": I},
        "skipped": {"total": I, "damaged_records": I, "damaged_chunks": I,
                    "unmatched_pops": I, "unknown_kinds": I, "over_limits": I,
                    "imported": I},
        "unreadable": {"files": I, "list": [{"path": S}]},
        "import": opt({"total": I, "skipped": I, "left_out": I, "changed": I,
                       "causes": [{"cause": S, "count": I, "file": S, "first_offset": I,
                                   "text": S}]}),
        "adjusted": {"after_previous": I, "after_previous_max_ns": I, "before_launch": I,
                     "before_launch_max_ns": I},
        "unfinished": I,
    },
    "ranges": table(TIME_ROW),
    "steps": opt({"count": I, "total_ns": I, "avg_ns": I, "median_ns": I, "min_ns": I,
                  "max_ns": I, "slowest": [{"step": I, "process": I, "time_ns": I}]}),
    "devices": {"covered_ns": I,
                "rows": [{"busy_pct": R, "busy_ns": I, "ops": I, "process": I, "device": I,
                          "label": S}], "spread": SPREAD},
    "idle_gaps": {"rows": [{"gap": S, "from_ns": I, "to_ns": opt(I),
                            "devices": [{"count": I, "total_ns": I}]}]},
    "kernels": table(TIME_ROW),
    "kernels_by_caller": table(TIME_ROW),
    "copies": {"rows": [{"calls": I, "bytes": I, "time_ns": I, "bandwidth_GBps": R,
                         "direction": S}]},
    "nrt": {
        "models": table({"total_pct": R, "time_ns": I, "execs": I, "avg_ns": I, "min_ns": I,
                         "max_ns": I, "failed": I, "input_bytes": I, "output_bytes": I,
                         "bandwidth_GBps": R, "cores": S, "name": S}),
        "tensor_traffic": {"rows": [{"calls": I, "bytes": I, "time_ns": I,
                                     "bandwidth_GBps": R, "operation": S, "placement": S}]},
        "neuroncores": {"covered_ns": I,
                        "rows": [{"busy_pct": R, "busy_ns": I, "execs": I, "process": I,
                                  "nc": I, "label": S}], "spread": SPREAD},
        "failures": table({"calls": I, "status_code": I, "status": S, "name": S}),
    },
    "system": {
        "cpu_functions": table({"self_pct": R, "self_samples": I, "total_pct": R,
                                "total_samples": I, "function": S}, samples=I),
        "cpu_threads": table(THREAD_ROW),
        "off_cpu": table(dict(STATES, **THREAD_WHO), total=STATES),
        "cpu_cores": {"rows": [{"avg_pct": R, "max_pct": R, "samples": I, "cpu": I,
                                "host": S}]},
        "memory": {"rows": [{"kind": S, "peak_bytes": R, "total_bytes": opt(R),
                             "host": S, "process_label": S, "process": I}]},
        "lost": {"samples_lost": I, "unattributed": I, "unresolved_addresses": I,
                 "missing_files": I},
    },
    "framework_ops": table({"count": I, "self_ns": I, "self_pct": R, "total_ns": I,
                            "avg_ns": I, "name": S}),
    "hip_api": table(TIME_ROW),
    "mpi": {
        "calls": table(TIME_BYTES_ROW),
        "ranks": {"rows": [{"rank": opt(I), "process": I, "time_ns": I, "covered_ns": I,
                            "share_pct": R, "late_sender_ns": I, "late_receives": I,
                            "label": S}], "spread": SPREAD,
                  "processes": I, "imbalance": R},
        "messages": {"matched": I, "matched_bytes": I, "avg_size_bytes": R,
                     "unmatched_sends": I, "unmatched_receives": I, "sends": I, "receives": I,
                     "never_completed": I, "cancelled": I, "proc_null": I,
                     "late_sender_ns": I, "late_receives": I, "blocking_receives": I},
        "collectives": table({"instances": I, "incomplete": I, "bytes": I, "total_ns": I,
                              "mean_ns": I, "bandwidth_Bps": opt(R), "wait_ns": I, "name": S},
                             incomplete=I, names_differ=I),
        "io": table({"opens": I, "reads": I, "read_bytes": I, "read_ns": I, "writes": I,
                     "write_bytes": I, "write_ns": I, "other_calls": I, "other_ns": I,
                     "file": S}),
        "rma": table({"fences": I, "locks": I, "access_epochs": I, "puts": I, "put_bytes": I,
                      "gets": I, "get_bytes": I, "atomics": I, "atomic_bytes": I,
                      "move_ns": I, "sync_ns": I, "window": S}, linked=I, unlinked=I),
        "clock_alignment": {"rows": [{"rank": I, "process": I, "measured_at": S,
                                      "offset_ns": opt(I), "round_trip_ns": opt(I),
                                      "applied": B, "verdict": S, "label": S}],
                            "spread": SPREAD},
    },
    "nccl": {
        "calls": table(TIME_BYTES_ROW),
        "collectives": table({"calls": I, "ranks": I, "size_bytes": R, "bus_bytes": R,
                              "count": opt(I), "type": opt(S), "timed_parts": I,
                              "total_ns": opt(I), "avg_ns": opt(I), "algbw_GBps": opt(R),
                              "busbw_GBps": opt(R), "wait_instances": I,
                              "wait_avg_ns": opt(I), "wait_max_ns": opt(I),
                              "last_in_rank": opt(I), "last_in_count": I, "name": S,
                              "incomplete": I, "untimed_parts": I},
                             instances=I, incomplete=I, unmatched_operations=I,
                             untimed_parts=I),
        "p2p": table({"messages": I, "bytes": I, "avg_size_bytes": R, "src": I, "dst": I,
                      "comm": S}, unmatched=I, spread=SPREAD),
    },
    "nrt_api": table(TIME_ROW),
    "cuda_api": table(TIME_ROW),
    "marks": table({"count": I, "name": S}),
    "counters": table({"samples": I, "min": R, "max": R, "mean": R, "last": R, "name": S}),
}

errors = []


def err(msg):
    errors.append(msg)


def check_type(v, t, path):
    if isinstance(t, tuple):
        if v is None:
            return
        t = t[1]
    if isinstance(t, dict):
        if not isinstance(v, dict):
            return err("%s: %r is not an object" % (path, v))
        for k in t:
            if k not in v:
                err("%s: key %s is missing" % (path, k))
        for k in v:
            if k not in t:
                err("%s: key %s is not in the schema" % (path, k))
            else:
                check_type(v[k], t[k], path + "." + k)
    elif isinstance(t, list):
        if not isinstance(v, list):
            return err("%s: %r is not an array" % (path, v))
        for i, e in enumerate(v):
            check_type(e, t[0], "%s[%d]" % (path, i))
    elif t == I:
        if type(v) is not int:
            err("%s: %r is not an integer" % (path, v))
    elif t == R:
        if type(v) not in (int, float):
            err("%s: %r is not a number" % (path, v))
    elif t == S:
        if not isinstance(v, str):
            err("%s: %r is not a string" % (path, v))
    elif t == B:
        if not isinstance(v, bool):
            err("%s: %r is not a boolean" % (path, v))


def schema_keys(t, out):
    if isinstance(t, tuple):
        t = t[1]
    if isinstance(t, list):
        t = t[0]
    if isinstance(t, dict):
        for k, v in t.items():
            out.add(k)
            schema_keys(v, out)
    return out


# ---- reading a figure back from the text --------------------------------------------------
NUM = r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?"
DUR = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}
BYTES = {"B": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12}
UNIT = {
    "dur": (re.compile(r" (ns|us|ms|s)(?![\w/])"), DUR, False),
    "pct": (re.compile(r" (%)"), {"%": 1}, True),
    "bytes": (re.compile(r" (B|kB|MB|GB|TB)(?![\w/])"), BYTES, False),
    "rate": (re.compile(r" (B|kB|MB|GB|TB)/s"), BYTES, True),
    "num": (None, None, False),
}


def kind(key):
    if key.endswith("_ns"):
        return "dur"
    if key.endswith("_pct"):
        return "pct"
    if key.endswith("_Bps"):
        return "rate"
    if key == "bytes" or key.endswith("_bytes"):
        return "bytes"
    return "num"


def read_number(line, pos, k):
    """(value, tolerance, end) of the figure at pos, read as kind k; None if there is none."""
    m = re.compile(NUM).match(line, pos)
    if not m:
        return None
    tok = m.group(0)
    mant, _, exp = tok.replace(",", "").lower().partition("e")
    dec = len(mant.partition(".")[2])
    value = float(mant) * 10 ** int(exp or 0)
    tol = 0.5 * 10 ** (int(exp or 0) - dec)
    end = m.end()
    rx, scale, required = UNIT[k]
    if rx:
        u = rx.match(line, end)
        if u:
            value *= scale[u.group(1)]
            tol *= scale[u.group(1)]
            end = u.end()
        elif required:
            return None
    return value, tol, end


def shown(s):
    """A string as the text shows it: control bytes as '?'."""
    return "".join("?" if ord(c) < 0x20 or c == "\x7f" else c for c in s)


def skip(line, pos):
    while pos < len(line) and line[pos] == " ":
        pos += 1
    return pos


def match(line, items, ctx, where):
    """Matches line against a template; returns a list of problems."""
    bad = []
    pos = 0
    for it in items:
        if isinstance(it, tuple):
            op = it[0]
            if op == "each":
                _, key, sub, sep = it
                for i, e in enumerate(ctx[key]):
                    if i and sep:
                        pos = skip(line, pos)
                        if not line.startswith(sep, pos):
                            return bad + ["at %d: %r expected" % (pos, sep)]
                        pos += len(sep)
                    p, b = match_part(line, pos, sub, e, where)
                    bad += b
                    if p is None:
                        return bad
                    pos = p
                continue
            raise ValueError(it)
        p, b = match_part(line, pos, [it], ctx, where)
        bad += b
        if p is None:
            return bad
        pos = p
    if line[pos:].strip():
        bad.append("unexpected %r at the end" % line[pos:])
    return bad


def match_part(line, pos, items, ctx, where):
    bad = []
    for it in items:
        pos = skip(line, pos)
        if it.startswith("="):
            for word in it[1:].split():
                pos = skip(line, pos)
                if not line.startswith(word, pos):
                    return None, bad + ["at %d: %r expected, %r found" %
                                        (pos, word, line[pos:pos + 20])]
                pos += len(word)
            continue
        v = ctx[it]
        if v is None:
            if line[pos:pos + 1] not in ("-", "?"):
                return None, bad + ["%s.%s: null, but %r in the text" %
                                    (where, it, line[pos:pos + 20])]
            pos += 1
        elif isinstance(v, str):
            s = shown(v)
            if not line.startswith(s, pos):
                return None, bad + ["%s.%s: %r, but %r in the text" %
                                    (where, it, v, line[pos:pos + len(s) + 10])]
            pos += len(s)
        else:
            r = read_number(line, pos, kind(it))
            if r is None:
                return None, bad + ["%s.%s: no figure at %r" % (where, it, line[pos:pos + 20])]
            value, tol, pos = r
            if abs(v - value) > tol * (1 + 1e-9) + 1e-9:
                bad.append("%s.%s: JSON %r, text %r (within %g)" % (where, it, v, value, tol))
    return pos, bad


# ---- the text the JSON calls for, line by line --------------------------------------------
SKIP = "*"   # a column heading: no figures


def blank():
    return ([], {})


def more(t):
    if t["rows_omitted"]:
        return [(["=...", "rows_omitted", "=more (--top 0 shows all)"], t)]
    return []


def more_rows(t):
    if t["rows_omitted"]:
        return [(["=... more rows (--top 0 shows all)"], t)]
    return []


TIME = ["total_pct", "time_ns", "calls", "avg_ns", "min_ns", "max_ns"]


def time_table(title, t, with_bytes=False):
    if not t["rows"]:
        return []
    cells = TIME + (["bytes", "avg_size_bytes"] if with_bytes else []) + ["name"]
    return ([blank(), (["=" + title], {}), SKIP] + [(cells, r) for r in t["rows"]] + more(t))


def rows_table(title, t, cells, ctx=None):
    if not t["rows"]:
        return []
    return [blank(), (title, ctx if ctx is not None else t), SKIP] + [(cells, r) for r in t["rows"]]


DROPS = [("max_events", "TPROF_MAX_EVENTS reached"),
         ("no_buffer", "no free buffer (the flusher fell behind)"),
         ("stopped", "recording stopped after an output error"),
         ("device_untimed", "device operations left untimed"),
         ("samples_lost", "system samples lost (the kernel's ring buffer was full)"),
         ("reentered", "made inside the recorder (a signal handler)"),
         ("no_files", "the process could not create its files")]


def drop_cells(cells, dr):
    for k, text in DROPS:
        if dr[k]:
            cells += ["=[" + text + ":", k, "=]"]
    return cells


def header(d):
    h = d["header"]
    out = [(["=tprof summary of", "dir"], d)]
    for j in h["jobs"]:
        cells = ["=job:", "id"] if j["id"] is not None else ["=job: unknown (no job identity)"]
        cells += ["=(started", "start_utc", "=,", "processes",
                  "=process" if j["processes"] == 1 else "=processes"]
        if j["command"] is not None:
            cells += ["=:", "command"]
        out.append((cells + ["=)"], j))
    if h["jobs_not_analyzed"]:
        out.append((["=other jobs:", "jobs_not_analyzed",
                     "=in the directory, not analyzed (see --job)"], h))
    out += [(["=wall time:", "wall_time_ns"] +
             (["=(trace starts", "trace_start_utc", "=)"] if h["dated"] else
              ["=(no date: its input gives times from its own start only)"]), h)]
    if h["window"]:
        out.append((["=window:", "spec", "=: +", "start_ns", "=to +", "end_ns", "=(", "length_ns",
                     "=)"], h["window"]))
    if h["capture"]:
        c = dict(h["capture"], wall_time_ns=h["wall_time_ns"])
        if c["windows"]:
            out.append((["=recorded:", "recorded_ns", "=of the", "wall_time_ns", "=in",
                         "windows", "=capture window" + ("" if c["windows"] == 1 else "s"),
                         "=(opened by", "opened_by", "=; closed by", "closed_by", "=)"], c))
        else:
            out.append((["=recorded: nothing: paused from the start to the end (closed by",
                         "closed_by", "=)"], c))
    out.append((["=processes:", "processes", "=threads:", "threads", "=events:", "events"], h))
    for p in h["process_list"]:
        cells = ["index", "label"]
        if p["imported"]:
            cells.append("=[with " + ", ".join(f["file"] for f in p["imported"]) + " imported]")
        if p["sampled_only"]:
            cells.append("=[system profile only: it recorded no calls of its own]")
        elif p["live"]:
            cells.append("=[still running (live): read as far as it was written]")
        elif not p["final_flush"]:
            cells.append("=[no final flush (_exit, killed or crashed)" +
                         (": read from its spool]" if p["from_spool"] else "]"))
        out.append((cells, p))
        if p["dropped"]["total"]:
            out.append((drop_cells(["=lost", "total", "=records:"], p["dropped"]), p["dropped"]))
    for l in h["lost_processes"]:
        cells = ["=-  pid", "pid", "=(", "host"]
        cells += ["=, child of pid", "ppid", "=)"] if l["ppid"] is not None else ["=)"]
        if l["known"]:
            cells += ["=[no files of its own:", "records_lost", "=records lost]"]
        else:
            cells += ["=[no files of its own:", "records_lost", "=records lost, it did not exit]"]
        out.append((cells, l))
    dr = h["dropped"]
    out.append((drop_cells(["=dropped:", "total"], dr), dr))
    sk = h["skipped"]
    cells = ["=skipped:", "total"]
    if sk["damaged_records"] or sk["damaged_chunks"]:
        cells += ["=[damaged input:", "damaged_records", "=records in", "damaged_chunks",
                  "=chunks]"]
    if sk["unmatched_pops"]:
        cells += ["=[range pops without a push:", "unmatched_pops", "=]"]
    if sk["unknown_kinds"]:
        cells += ["=[records of unknown kind:", "unknown_kinds", "=]"]
    if sk["over_limits"]:
        cells += ["=[past what is held open:", "over_limits", "=]"]
    if sk["imported"]:
        cells += ["=[imported events:", "imported", "=]"]
    out.append((cells, sk))
    c = h["cut"]
    if c["total"]:
        cells = ["=cut:", "total", "=ranges and steps shown cut where records were dropped"]
        if c["begin_dropped"]:
            cells += ["=[begin dropped:", "begin_dropped", "=]"]
        if c["end_dropped"]:
            cells += ["=[end dropped:", "end_dropped", "=]"]
        if c["steps"]:
            cells += ["=[steps ended where the next one's start was dropped:", "steps", "=]"]
        out.append((cells, c))
    im = h["import"]
    if im and im["total"]:
        out.append((["=import:", "total", "=events or values changed or left out (-v says where)"],
                    im))
        out += [(["count", "text"], x) for x in im["causes"]]
    u = h["unreadable"]
    if u["files"]:
        cells = ["=unreadable:", "files", "=file" + ("s" if u["files"] != 1 else "") +
                 " not read, or not to the end:"]
        cells += ["=" + x["path"] for x in u["list"][:4]]
        if u["files"] > 4:
            cells.append("=and %d more" % (u["files"] - 4))
        out.append((cells, u))
    a = h["adjusted"]
    if a["after_previous"] or a["before_launch"]:
        cells = ["=adjusted: device spans moved later by more than 1 us, durations kept:"]
        if a["after_previous"]:
            cells += ["=[overlapping the span before on their stream:", "after_previous",
                      "=, largest", "after_previous_max_ns", "=]"]
        if a["before_launch"]:
            cells += ["=[starting before their launch:", "before_launch", "=, largest",
                      "before_launch_max_ns", "=]"]
        out.append((cells, a))
    if h["unfinished"]:
        out.append((["=unfinished:", "unfinished",
                     "=ranges or steps still open when their process ended"], h))
    return out


def steps(st):
    if st is None:
        return []
    return [blank(), (["=Steps"], {}), SKIP,
            (["count", "total_ns", "avg_ns", "median_ns", "min_ns", "max_ns"], st),
            (["=slowest:", ("each", "slowest", ["=step", "step", "=(process", "process", "=)",
                                                "time_ns"], ",")], st)]


def devices(d):
    dv, gaps = d["devices"], d["idle_gaps"]
    if not dv["rows"]:
        return []
    out = rows_table(["=Devices: busy share of the covered time (", "covered_ns", "=)"], dv,
                     ["busy_pct", "busy_ns", "ops", "=GPU", "device", "=of", "label"])
    out += [blank(), (["=Idle gaps between device work"], {}),
            (["=Gap", ("each", "rows", ["=GPU", "device", "=(p", "process", "=)", "=total"],
                       None)], dv)]
    out += [(["gap", ("each", "devices", ["count", "total_ns"], None)], r) for r in gaps["rows"]]
    return out


def nrt(n):
    out = rows_table(["=NRT models: executions by model, all NeuronCores and processes"],
                     n["models"], ["total_pct", "time_ns", "execs", "avg_ns", "min_ns", "max_ns",
                                   "failed", "input_bytes", "output_bytes", "bandwidth_GBps",
                                   "cores", "name"])
    out += more(n["models"]) if n["models"]["rows"] else []
    out += rows_table(["=NRT tensor traffic"], n["tensor_traffic"],
                      ["calls", "bytes", "time_ns", "bandwidth_GBps", "operation", "placement"])
    out += rows_table(["=NeuronCores: busy share of the covered time (", "covered_ns", "=)"],
                      n["neuroncores"], ["busy_pct", "busy_ns", "execs", "=nc", "nc", "=of",
                                         "label"])
    out += rows_table(["=NRT calls that failed"], n["failures"], ["calls", "status", "name"])
    out += more(n["failures"]) if n["failures"]["rows"] else []
    return out


def system(s):
    f = s["cpu_functions"]
    out = rows_table(["=CPU samples by function (", "samples", "=samples; self: the innermost "
                      "frame, total: anywhere in the stack)"], f,
                     ["self_pct", "self_samples", "total_pct", "total_samples", "function"])
    out += more(f) if f["rows"] else []
    t = s["cpu_threads"]
    out += rows_table(["=CPU samples by thread"], t, ["samples", "share_pct", "thread", "=of",
                                                      "process_label"])
    out += more(t) if t["rows"] else []
    o = s["off_cpu"]
    states = ["running_ns", "runnable_ns", "sleeping_ns", "blocked_ns", "stopped_ns",
              "off_cpu_ns"]
    out += rows_table(["=Off-CPU time by thread and reason (runnable: preempted or waiting for "
                       "a CPU; blocked: uninterruptible, mostly I/O)"], o,
                      states + ["thread", "=of", "process_label"])
    if o["rows"]:
        out += more(o) + [(states + ["=total"], o["total"])]
    out += rows_table(["=CPU utilisation per core"], s["cpu_cores"],
                      ["avg_pct", "max_pct", "samples", "=CPU", "cpu", "=of", "host"])
    m = s["memory"]
    if m["rows"]:
        out += [blank(), (["=Memory (peaks of the samples)"], {}), SKIP]
        for r in m["rows"]:
            what = ["=host memory used on", "host"] if r["kind"] == "host" else \
                ["=RSS of", "process_label"]
            out.append((["peak_bytes", "total_bytes"] + what, r))
    lo = s["lost"]
    if any(lo.values()):
        out += [blank(), (["=System profile: samples lost (the kernel's ring buffer was full):",
                           "samples_lost", "=; records of unknown threads left out:",
                           "unattributed", "=; addresses not named:", "unresolved_addresses",
                           "=; ELF files not found or changed:", "missing_files"], lo)]
    return out


def mpi(m):
    out = time_table("MPI", m["calls"], True)
    rk = m["ranks"]
    if rk["rows"]:
        out += rows_table(["=MPI by rank: time in MPI calls, its share of the rank's covered "
                           "time, late-sender wait"], rk,
                          ["rank", "time_ns", "share_pct", "late_sender_ns", "late_receives",
                           "label"])
        out.append((["=imbalance (max/mean of time in MPI over", "processes", "=processes):",
                     "imbalance"], rk))
    ms = m["messages"]
    if ms["matched"] or ms["sends"] or ms["receives"] or ms["unmatched_sends"] or \
            ms["unmatched_receives"]:
        out += [blank(), (["=MPI messages"], {}),
                (["=matched:", "matched", "=messages,", "matched_bytes"] +
                 (["=(avg", "avg_size_bytes", "=)"] if ms["matched"] else []), ms),
                (["=unmatched:", "unmatched_sends", "=sends,", "unmatched_receives",
                  "=receives (of", "sends", "=sends and", "receives", "=receives in the trace)"],
                 ms)]
        if ms["never_completed"] or ms["cancelled"] or ms["proc_null"]:
            out.append((["=no message:", "never_completed", "=receives never completed,",
                         "cancelled", "=cancelled,", "proc_null", "=with MPI_PROC_NULL"], ms))
        if ms["blocking_receives"]:
            out.append((["=late sender:", "late_sender_ns", "=in", "late_receives", "=of",
                         "blocking_receives", "=blocking receives"], ms))
    c = m["collectives"]
    if c["rows"]:
        out += rows_table(["=MPI collectives: duration from the first entry to the last exit; "
                           "wait: members' time before the last arrived"], c,
                          ["instances", "bytes", "total_ns", "mean_ns", "bandwidth_Bps",
                           "wait_ns", "name"])
        out += more(c)
    if m["calls"]["rows"] and (c["incomplete"] or c["names_differ"]):
        out.append((["=incomplete:", "incomplete", "=collectives not found on every member;",
                     "names_differ", "=with members calling different functions"], c))
    out += rows_table(["=MPI-IO by file: reads and writes with their bytes (nonblocking ones: "
                       "as asked for) and time; other calls: opening, views, seeks, syncs, "
                       "closing"], m["io"],
                      ["opens", "reads", "read_bytes", "read_ns", "writes", "write_bytes",
                       "write_ns", "other_calls", "other_ns", "file"])
    out += more(m["io"])
    r = m["rma"]
    out += rows_table(["=MPI one-sided communication by window: epochs, data moved (atomics: "
                       "sent and fetched), time moving data and synchronizing"], r,
                      ["fences", "locks", "access_epochs", "puts", "put_bytes", "gets",
                       "get_bytes", "atomics", "atomic_bytes", "move_ns", "sync_ns", "window"])
    if r["rows"]:
        out += more(r) + [(["=fence epochs:", "linked", "=transfers linked to the fence that "
                            "ended them at their target,", "unlinked",
                            "=whose fence is not in the trace"], r)]
    out += rows_table(["=Clock alignment: offset = the rank's clock minus rank 0's (ns), "
                       "subtracted when applied"], m["clock_alignment"],
                      ["rank", "measured_at", "offset_ns", "round_trip_ns", "verdict", "label"])
    return out


def nccl(n):
    out = time_table("NCCL API", n["calls"], True)
    c = n["collectives"]
    if c["rows"]:
        out += [blank(), (["=NCCL collectives: device time of each rank's part; bandwidth as "
                           "nccl-tests computes it from the average (GB/s, 1 GB = 1e9 B); wait: "
                           "first to last rank entering"], {}), SKIP]
        for r in c["rows"]:
            last = ["=-"] if r["last_in_rank"] is None else \
                ["last_in_rank", "=(", "last_in_count", "=/", "wait_instances", "=)"]
            out.append((["calls", "ranks", "size_bytes", "count", "type", "total_ns", "avg_ns",
                         "algbw_GBps", "busbw_GBps", "wait_avg_ns", "wait_max_ns"] + last +
                        ["name"], r))
            if r["incomplete"] or r["untimed_parts"]:
                out.append((["=of which", "incomplete", "=incomplete;", "untimed_parts",
                             "=ranks' parts untimed"], r))
        out += more(c)
        out += [(["=instances:", "instances", "=,", "incomplete",
                  "=incomplete (a rank's call, a counterpart or a device span missing);",
                  "unmatched_operations", "=operations unmatched;", "untimed_parts",
                  "=ranks' parts without device timing"], c),
                (["=groups: one row per composition; time: the group's device span; size: its "
                  "collectives' S plus the larger of the bytes it sent and received"], {})]
    p = n["p2p"]
    if p["rows"] or p["unmatched"]:
        out += [blank(), (["=NCCL send/receive: sends matched with their receives"], {}), SKIP]
        out += [(["messages", "bytes", "avg_size_bytes", "src", "=->", "dst", "=(", "comm", "=)"],
                 r) for r in p["rows"]]
        out += more(p)
        if p["unmatched"]:
            out.append((["=unmatched:", "unmatched",
                         "=sends or receives without their counterpart"], p))
    return out


def expected(d):
    out = header(d)
    out += time_table("Ranges", d["ranges"])
    out += steps(d["steps"])
    out += devices(d)
    out += time_table("Kernels", d["kernels"])
    out += time_table("Kernels by launching function (TPROF_CALLSTACK)", d["kernels_by_caller"])
    out += rows_table(["=Copies and memsets"], d["copies"],
                      ["calls", "bytes", "time_ns", "bandwidth_GBps", "direction"])
    out += nrt(d["nrt"])
    out += system(d["system"])
    f = d["framework_ops"]
    out += rows_table(["=Framework ops (imported slices by name; self: less the slices inside "
                       "them)"], f, ["count", "self_ns", "self_pct", "total_ns", "avg_ns", "name"])
    out += more(f) if f["rows"] else []
    out += time_table("HIP API", d["hip_api"])
    out += mpi(d["mpi"])
    out += nccl(d["nccl"])
    out += time_table("NRT API", d["nrt_api"])
    out += time_table("CUDA", d["cuda_api"])
    out += rows_table(["=Marks"], d["marks"], ["count", "name"]) + \
        (more_rows(d["marks"]) if d["marks"]["rows"] else [])
    out += rows_table(["=Counters"], d["counters"], ["samples", "min", "max", "mean", "last",
                                                     "name"]) + \
        (more_rows(d["counters"]) if d["counters"]["rows"] else [])
    return out


# ---- what the JSON must hold exactly, whatever the text rounds -----------------------------
def exact(d):
    """Relations between figures that the text's rounding would hide."""
    h = d["header"]
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(h["trace_start_unix_ns"] // 10**9))
    if when != h["trace_start_utc"]:
        err("header.trace_start_utc %r, but trace_start_unix_ns gives %r" %
            (h["trace_start_utc"], when))
    if h["dropped"]["total"] < sum(h["dropped"][k] for k, _ in DROPS):
        err("header.dropped: the total is less than its reasons")
    tables = [d["ranges"], d["kernels"], d["kernels_by_caller"], d["hip_api"], d["nrt_api"],
              d["cuda_api"], d["mpi"]["calls"], d["nccl"]["calls"]]
    for t in tables:
        for r in t["rows"]:
            if r["avg_ns"] != r["time_ns"] // r["calls"] or \
                    not r["min_ns"] <= r["avg_ns"] <= r["max_ns"]:
                err("%s: avg_ns %d of %d ns in %d calls, min %d, max %d" % (
                    r["name"], r["avg_ns"], r["time_ns"], r["calls"], r["min_ns"], r["max_ns"]))
        total = sum(r["time_ns"] for r in t["rows"])
        if t["rows"] and not t["rows_omitted"] and total:
            for r in t["rows"]:
                if abs(r["total_pct"] - 100.0 * r["time_ns"] / total) > 1e-9:
                    err("%s: total_pct %r, not 100 * %d / %d" % (r["name"], r["total_pct"],
                                                                r["time_ns"], total))
        for a, b in zip(t["rows"], t["rows"][1:]):
            if (a["time_ns"], b["name"]) < (b["time_ns"], a["name"]):
                err("%s before %s: rows not by total time" % (a["name"], b["name"]))
    for dv in (d["devices"], d["nrt"]["neuroncores"]):
        for r in dv["rows"]:
            want = 100.0 * r["busy_ns"] / dv["covered_ns"] if dv["covered_ns"] else 0.0
            if abs(r["busy_pct"] - want) > 1e-9:
                err("%s: busy_pct %r, not %r" % (r["label"], r["busy_pct"], want))
    for r in d["nccl"]["collectives"]["rows"]:
        if r["timed_parts"] and r["total_ns"] > 0:
            a = r["total_ns"] / r["timed_parts"]
            if r["avg_ns"] != int(a + 0.5) or \
                    abs(r["algbw_GBps"] - r["size_bytes"] / a) > 1e-9 * r["algbw_GBps"] or \
                    abs(r["busbw_GBps"] - r["bus_bytes"] / a) > 1e-9 * r["busbw_GBps"]:
                err("%s: avg_ns %r, algbw %r, busbw %r from %d ns over %d parts" % (
                    r["name"], r["avg_ns"], r["algbw_GBps"], r["busbw_GBps"], r["total_ns"],
                    r["timed_parts"]))


def compare(text_path, json_path):
    d = json.load(open(json_path, encoding="utf-8"))
    check_type(d, SCHEMA, "$")
    if errors:
        return
    exact(d)
    lines = open(text_path, encoding="utf-8", errors="replace").read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    want = expected(d)
    for i in range(max(len(lines), len(want))):
        line = lines[i] if i < len(lines) else None
        w = want[i] if i < len(want) else None
        if line is None or w is None:
            err("line %d: %s" % (i + 1, "missing in the text, the JSON calls for one"
                                 if line is None else "%r, more than the JSON calls for" % line))
            break
        if w == SKIP:
            continue
        items, ctx = w
        bad = match(line, items, ctx, "line %d" % (i + 1))
        if bad:
            err("line %d %r: %s" % (i + 1, line, "; ".join(bad)))
            if len(errors) > 20:
                break


def doc(path):
    """Every key named in DOC, as `key`, `a.key.rows[]` or "key" (in its layout)."""
    text = open(path, encoding="utf-8").read()
    named = set()
    for span in re.findall(r"`([^`\n]+)`", text) + re.findall(r'"(\w+)":', text):
        named.update(re.findall(r"\w+", span))
    for k in sorted(schema_keys(SCHEMA, set())):
        if k not in named:
            err("key %s is not documented in %s" % (k, path))


def main():
    if sys.argv[1] == "--doc":
        doc(sys.argv[2])
    else:
        compare(sys.argv[1], sys.argv[2])
    if errors:
        sys.exit("\n".join(errors[:20]))


main()
