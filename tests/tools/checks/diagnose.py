"""diagnose.py — the checks of func/t-diagnose.sh: tprof-analyze --diagnose (JSON) against the
truth apps/diag-causes printed (the cause it injected, measured by the program itself)."""
import json
import os
import sqlite3

from checklib import fail, main


def _load(path):
    d = json.load(open(path))
    if "diagnosis" not in d:
        fail("%s: no diagnosis" % path)
    return d["diagnosis"]


def _truth(path):
    for line in open(path):
        if line.startswith('{"scenario"'):
            return json.loads(line)
    fail("%s: no truth line" % path)


def _near(what, got, want, share=0.10):
    if abs(got - want) > share * want:
        fail("%s: %.3f ms, the truth %.3f ms (more than %d%% apart)" %
             (what, got / 1e6, want / 1e6, share * 100))


def _top(dx, kind, rank):
    if not dx["findings"]:
        fail("no finding")
    f = dx["findings"][0]
    if f["kind"] != kind or f["process"]["rank"] != rank:
        fail("the top finding is %s of rank %s, not %s of rank %s: %s" %
             (f["kind"], f["process"]["rank"], kind, rank, json.dumps(f)[:600]))
    return f


def top(scenario, truth_out, diag_json, *extra):
    """The top finding names the injected cause: its kind, rank, step and time (within 10 %).
    extra: the slow and the step kernel's microseconds, the copy's MiB and GB/s."""
    t, dx = _truth(truth_out), _load(diag_json)
    if t["scenario"] != scenario:
        fail("the truth is of %s" % t["scenario"])
    kind = {"late-coll": "wait_nxn", "slow-kernel": "wait_nxn", "late-sender": "late_sender",
            "late-receiver": "late_receiver", "nccl-late": "late_device_collective",
            "host-bound": "host_bound", "copy-block": "copy_held",
            "cpu-contention": "cpu_wait"}[scenario]
    f = _top(dx, kind, t["rank"])
    longest = f["longest"]
    if t["step"] >= 0:
        if longest["where"]["step"] != t["step"]:
            fail("the longest is in step %s, not %s" % (longest["where"]["step"], t["step"]))
        if scenario == "cpu-contention":
            # the program measures its own wait for the CPU; a loaded machine adds more of it
            # around, which the diagnosis rightly counts too: at least the injected wait,
            # at most the step
            step = [s for s in dx["steps"] if s["step"] == t["step"]][0]
            if not 0.9 * t["injected_ns"] <= longest["ns"] <= step["longest_ns"]:
                fail("the wait for a CPU %d ns, the injected %d, the step %d" %
                     (longest["ns"], t["injected_ns"], step["longest_ns"]))
            # who ran meanwhile: the process the rank forked to spin, or (on a loaded
            # machine, which moves the others onto its CPU) another rank, polling in the
            # collective it waited in for this one; never the rank itself
            took = f["ran_meanwhile"]
            if not took or "diag-causes" not in took["label"] or took["ns"] <= 0 or \
                    took["process"]["rank"] == t["rank"]:
                fail("running meanwhile: %s" % json.dumps(took))
        else:
            _near("the longest", longest["ns"], t["injected_ns"])
    if scenario == "slow-kernel":
        # every step the slow kernel outlasts the others' by the difference of their lengths
        slow_us, step_us = int(extra[0]), int(extra[1])
        if not f["compute_excess"]["applies"]:
            fail("its compute excess is not said: %s" % json.dumps(f)[:600])
        _near("its compute over the others'", f["compute_excess"]["median_ns"],
              (slow_us - step_us) * 1000)
        if f["instances"] < t["steps"] // 2:
            fail("late in %d steps of %d" % (f["instances"], t["steps"]))
        cause = f["while_late"][0]
        if cause["category"] != "compute" or cause.get("top") != "slow_kernel":
            fail("while late: %s" % json.dumps(f["while_late"]))
    if scenario == "host-bound":
        # the stream idles while the host spins between two launches: the loops' time (the
        # program's) less the kernels' (the device's), within 10 % on a quiet machine; a
        # loaded one stretches gaps and kernels both, so: at least the spinning the program
        # did (by the clock), at most rank 0's steps
        p = [p for p in dx["processes"] if p["process"]["rank"] == 0][0]
        spin = (t["launches"] - 1) * t["host_us"] * 1000 * t["steps"]
        if not 0.9 * spin <= f["cost_ns"] <= p["covered_ns"]:
            fail("the idle gaps between launches %d ns, the spinning %d, the steps %d" %
                 (f["cost_ns"], spin, p["covered_ns"]))
    if scenario == "copy-block":
        mb, gbps = int(extra[2]), float(extra[3])   # GB/s: bytes a ns
        _near("the longest a kernel was held back", longest["ns"], mb * 2**20 / gbps)
        if f["made_late"] is None or f["made_late"]["kind"] != "wait_nxn":
            fail("the late arrival it caused is not with it: %s" % json.dumps(f)[:600])
    if scenario == "late-coll" or scenario == "nccl-late":
        cause = f["while_late"][0]
        if cause["category"] != "host":
            fail("while late: %s (it slept)" % json.dumps(f["while_late"]))


def slow_step(truth_out, diag_json, site):
    """The injected step is the slowest; its cause line and critical path go through the
    rank that slept, late into the collective, its link as long as the sleep or longer."""
    t, dx = _truth(truth_out), _load(diag_json)
    rows = dx["slow_steps"]["rows"]
    if not rows or rows[0]["step"] != t["step"]:
        fail("the slowest step is not %d: %s" % (t["step"], json.dumps(rows)[:400]))
    cause = rows[0]["cause"]
    if ("on rank %d:" % t["rank"]) not in cause or ("late into %s #" % site) not in cause:
        fail("the cause: %s" % cause)
    if dx["slow_steps"]["longest_step"] != t["step"]:
        fail("the critical path shown is of step %s" % dx["slow_steps"]["longest_step"])
    path = dx["slow_steps"]["critical_path"]
    late = [l for l in path if l["process"]["rank"] == t["rank"] and l["via"] and
            l["via"]["site"] == site]
    if not late or late[0]["ns"] < 0.9 * t["injected_ns"]:
        fail("no link of rank %d into %s of the sleep's length: %s" %
             (t["rank"], site, json.dumps(path)[:600]))
    if path[-1]["end_ns"] <= path[0]["start_ns"] or any(
            a["end_ns"] != b["start_ns"] for a, b in zip(path, path[1:])):
        fail("the links do not follow each other: %s" % json.dumps(path)[:600])
    step = [s for s in dx["steps"] if s["step"] == t["step"]][0]
    if step["critical_path"] != path:
        fail("the step's own critical path differs from the one shown")


def launches(truth_out, diag_json):
    """host-bound: rank 0's tiny kernels all counted on one stream, with their latency and the
    queue; each process's communication, next to none of it hidden (no kernel runs then)."""
    t, dx = _truth(truth_out), _load(diag_json)
    l = dx["launches"]
    want = t["launches"] * t["steps"]
    tiny = [k for k in l["kernels"] if k["name"] == "tiny_kernel" and k["process"]["rank"] == 0]
    if len(tiny) != 1 or tiny[0]["kernels"] < want:
        fail("tiny_kernel of rank 0: %s, want %d kernels or more" % (json.dumps(tiny), want))
    k = tiny[0]
    if not 0 < k["latency_median_ns"] <= k["latency_p90_ns"] <= k["latency_max_ns"]:
        fail("its latency: %s" % json.dumps(k))
    if k["launch_timed"] < want or k["shorter_than_launch"] > k["launch_timed"]:
        fail("its launching calls: %s" % json.dumps(k))
    streams = [s for s in l["streams"] if s["process"]["rank"] == 0]
    if sum(s["kernels"] for s in streams) != k["kernels"] or \
            any(s["queue_max"] > 64 for s in streams):
        fail("rank 0's streams: %s" % json.dumps(streams))
    for o in l["overlap"]:
        # the kernels end before the synchronize that precedes the allreduce returns; the
        # stand-in device thread stamps a kernel's end when it runs, which a loaded machine
        # delays (by 63 us past a 2.96 ms of communication once): a tenth at most
        if o["communicating_ns"] <= 0 or o["hidden_ns"] > 0.1 * o["communicating_ns"]:
            fail("communication of %s: %s" % (o["process"], json.dumps(o)))


def quiet(diag_json, limit_ms):
    """Nothing injected: no finding costs limit_ms or more (a loaded machine holds a rank's
    host now and then, and the diagnosis says so; each injected cause costs 200 ms)."""
    dx = _load(diag_json)
    for f in dx["findings"]:
        if f["cost_ns"] >= float(limit_ms) * 1e6:
            fail("a finding in a balanced job: %s" % json.dumps(f)[:600])


def adds_up(diag_json):
    """Each process's parts add up to the time it covers; each step's ranks likewise."""
    dx = _load(diag_json)
    cats = ["compute", "copy", "wait", "collective", "runtime", "host", "cpu_wait", "idle"]
    if not dx["processes"]:
        fail("no process")
    for p in dx["processes"]:
        parts = sum(p[c + "_ns"] for c in cats)
        if parts != p["covered_ns"]:
            fail("process %s: parts %d, covered %d" % (p["process"], parts, p["covered_ns"]))
    total = sum(sum(s["time"][c + "_ns"] for c in cats) for s in dx["steps"])
    covered = sum(p["covered_ns"] for p in dx["processes"])
    if dx["covers"] == "steps" and total != covered:
        fail("the steps' parts %d, the processes' time %d" % (total, covered))
    t = dx["time"]
    if sum(t[c + "_ns"] for c in cats) != t["covered_ns"]:
        fail("the job's parts do not add up")


def look(diag_json, profile):
    """Each finding's command names the profile and its step or time."""
    dx = _load(diag_json)
    for f in dx["findings"]:
        cmd, where = f["look"], f["longest"]["where"]
        if not cmd.startswith("tprof-analyze %s " % profile):
            fail("look: %s" % cmd)
        if where["step"] is not None and ("--steps %d " % where["step"]) not in cmd:
            fail("look: %s, the step %s" % (cmd, where["step"]))


CATS = ["compute", "copy", "wait", "collective", "runtime", "host", "cpu_wait", "idle"]


def _rows(db, sql):
    c = db.cursor()
    c.execute(sql)
    names = [d[0] for d in c.description]
    return [dict(zip(names, r)) for r in c.fetchall()]


def _string(db, sid):
    if sid is None:
        return None
    return db.execute("SELECT string FROM strings WHERE id = ?", (sid,)).fetchone()[0]


def sqlite_tables(diag_json, db_path, plain_db):
    """The diag_* tables of --format sqlite --diagnose hold what the JSON says: the findings
    in order, each step over the ranks with its cause and critical path, the wait states, and
    each process's split of each step, which adds up to the step and to the process's parts;
    a database written without --diagnose says so and has none."""
    dx = _load(diag_json)
    db = sqlite3.connect(db_path)
    meta = dict(db.execute("SELECT key, value FROM meta"))
    if meta.get("diagnosis") != 1:
        fail("meta.diagnosis: %r" % meta.get("diagnosis"))
    got = _rows(db, "SELECT * FROM diag_findings ORDER BY rank_order")
    if len(got) != len(dx["findings"]) or not got:
        fail("%d findings in the database, %d in the JSON" % (len(got), len(dx["findings"])))
    for r, f in zip(got, dx["findings"]):
        where = f["longest"]["where"]
        want = (f["rank_order"], f["kind"], f["cost_ns"], f["process"]["index"],
                where["step"], where["start_ns"], f["look"], f.get("site"), f.get("comm"))
        have = (r["rank_order"], r["kind"], r["cost_ns"], r["process_id"], r["step"],
                r["start_ns"], r["look"], _string(db, r["site_id"]), r["comm"])
        if want != have:
            fail("finding: the JSON %r, the database %r" % (want, have))
        if r["text"].startswith(" ") or "look:" in r["text"] or not r["text"]:
            fail("finding text: %r" % r["text"])
    steps = _rows(db, "SELECT * FROM diag_steps ORDER BY step")
    if [s["step"] for s in steps] != [s["step"] for s in dx["steps"]]:
        fail("steps: %r" % [s["step"] for s in steps])
    links = _rows(db, "SELECT * FROM diag_critical_path ORDER BY step, link")
    for r, s in zip(steps, dx["steps"]):
        if (r["longest_ns"], r["cause"], r["longest_process_id"], r["ranks"]) != \
                (s["longest_ns"], s["cause"], s["longest_index"], s["ranks"]):
            fail("step %d: %r against %r" % (s["step"], r, s))
        if any(r[c + "_ns"] != s["time"][c + "_ns"] for c in CATS):
            fail("step %d: its parts" % s["step"])
        mine = [l for l in links if l["step"] == s["step"]]
        if len(mine) != len(s["critical_path"]):
            fail("step %d: %d links, the JSON %d" % (s["step"], len(mine),
                                                    len(s["critical_path"])))
        for l, j in zip(mine, s["critical_path"]):
            via = j["via"]
            have = (l["process_id"], l["start_ns"], l["end_ns"], l["part"], l["part_ns"],
                    _string(db, l["top_id"]), l["via"] == 1,
                    _string(db, l["via_site_id"]) if via else None)
            want = (j["process"]["index"], j["start_ns"], j["end_ns"], j["category"],
                    j["category_ns"], j["top"], via is not None, via["site"] if via else None)
            if have != want:
                fail("step %d link %d: %r, the JSON %r" % (s["step"], l["link"], have, want))
    waits = _rows(db, "SELECT * FROM diag_wait_states ORDER BY id")
    have = [(w["kind"], w["process_id"], w["comm"], _string(db, w["site_id"]), w["count"],
             w["ns"]) for w in waits]
    want = [(w["kind"], w["process"]["index"], w["comm"], w["site"], w["count"], w["ns"])
            for w in dx["wait_states"]]
    if have != want or not have:
        fail("wait states: %r, the JSON %r" % (have[:3], want[:3]))
    splits = _rows(db, "SELECT * FROM diag_step_parts")
    n = sum(s["ranks"] for s in dx["steps"])
    if len(splits) != n:
        fail("%d step parts, %d ranks' steps" % (len(splits), n))
    for r in splits:
        if sum(r[c + "_ns"] for c in CATS) != r["end_ns"] - r["start_ns"]:
            fail("process %d step %s: its parts do not add up" % (r["process_id"], r["step"]))
    for p in dx["processes"]:
        mine = [r for r in splits if r["process_id"] == p["process"]["index"]]
        for c in CATS:
            if sum(r[c + "_ns"] for r in mine) != p[c + "_ns"]:
                fail("process %d: its steps' %s" % (p["process"]["index"], c))
    plain = sqlite3.connect(plain_db)
    meta = dict(plain.execute("SELECT key, value FROM meta"))
    count = plain.execute("SELECT COUNT(*) FROM diag_findings").fetchone()[0]
    if meta.get("diagnosis") != 0 or count:
        fail("without --diagnose: meta.diagnosis %r, %d findings" % (meta.get("diagnosis"),
                                                                     count))


main(globals())
