"""parallel-sqlite.py — the checks of func/t-parallel-sqlite.sh on the SQLite database K
analysis processes wrote together (`--parallel --format sqlite`).

    same SERIAL PARALLEL     every table holds the serial database's rows, as many of each,
                             once every reference is read as what it names (a string as its
                             text, a track as its process, kind and name, a thread as its process
                             and stream, a callsite as its stack, a collective as its runtime,
                             communicator and sequence, a slice as its track, times, depth and
                             name) and row ids left aside; the same meta, indexes and views;
                             every link (a device operation's launching call, the slices an
                             arrow joins) found; every arrow's key its own (the numbers in
                             keys and NCCL instance numbers in arguments are each
                             analysis process's own); no table but the schema's, no temporary and
                             no part left beside the database
"""
import collections
import os
import re
import sqlite3

from checklib import fail, main


def _tables(con):
    return sorted(r[0] for r in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))


def _schema(con):
    return sorted((r[0], r[1]) for r in con.execute(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))


def _cols(con, table):
    return [r[1] for r in con.execute("PRAGMA table_info(%s)" % table)]


class Names:
    """What each id of a database names."""

    def __init__(self, con):
        self.strings = dict(con.execute("SELECT id, string FROM strings"))
        self.tracks = {r[0]: r[1:] for r in con.execute(
            "SELECT id, chrome_pid, kind, name, device, stream, number, "
            "  CASE kind WHEN 'thread' THEN chrome_tid END FROM tracks")}
        self.threads = {r[0]: (r[1], r[2]) for r in
                        con.execute("SELECT id, process_id, stream FROM threads")}
        rows = {r[0]: r[1:] for r in
                con.execute("SELECT id, parent_id, name_id, is_kernel FROM callsites")}
        self.callsites = {}
        for i in rows:
            stack, at = [], i
            while at is not None:
                parent, name, kernel = rows[at]
                stack.append((self.strings[name], kernel))
                at = parent
            self.callsites[i] = tuple(reversed(stack))
        self.collectives = {r[0]: (r[1], r[2], r[3], self.strings[r[4]]) for r in con.execute(
            "SELECT id, runtime, comm, seq, name_id FROM collectives")}
        self.slices = {r[0]: (self.tracks[r[1]], r[2], r[3], r[4], self.strings[r[5]])
                       for r in con.execute(
                           "SELECT id, track_id, start_ns, end_ns, depth, name_id FROM slices")}

    def value(self, table, col, v):
        if v is None:
            return None
        if col == "id":
            return v if table == "processes" else "-"
        if col == "key" and v:
            # messages', collectives', windows' and NCCL instances' numbers (and the order
            # of an instance's sends): each analysis process numbers those it matches
            return re.sub(r"^([mcrnp])\d+(\.\d+)?$", r"\1#", v)
        if col == "args" and v:
            return re.sub(r'"nccl_instance":\d+', '"nccl_instance":#', v)
        if table == "tracks" and col == "chrome_tid":
            return "-"   # a device's: each analysis process numbers those of its share
        if col in ("name_id", "category_id", "caller_id"):
            return self.strings.get(v, ("no such row", v))
        if col.endswith("track_id"):
            return self.tracks.get(v, ("no such row", v))
        if col.endswith("thread_id"):
            return self.threads.get(v, ("no such row", v))
        if col == "callsite_id" or (table == "callsites" and col == "parent_id"):
            return self.callsites.get(v, ("no such row", v))
        if col == "collective_id":
            return self.collectives.get(v, ("no such row", v))
        if col.endswith("slice_id"):
            return self.slices.get(v, ("no such row", v))
        return v


def _rows(con, names, table):
    cols = _cols(con, table)
    out = collections.Counter()
    for r in con.execute("SELECT * FROM %s" % table):
        out[tuple(names.value(table, c, v) for c, v in zip(cols, r))] += 1
    return cols, out


def same(serial, parallel):
    for leftover in os.listdir(os.path.dirname(os.path.abspath(parallel))):
        base = os.path.basename(parallel)
        if leftover.startswith(base) and leftover != base:
            fail("%s is left beside the database" % leftover)
    s, p = sqlite3.connect(serial), sqlite3.connect(parallel)
    if _schema(s) != _schema(p):
        fail("the schemas differ: %s against %s" % (_schema(s), _schema(p)))
    if "flow_halves" in _tables(p):
        fail("flow_halves is left in the database")
    meta = [dict(c.execute("SELECT key, value FROM meta")) for c in (s, p)]
    if meta[0] != meta[1]:
        fail("meta differs: %s against %s" % meta)
    ns, np_ = Names(s), Names(p)
    total = 0
    for t in _tables(s):
        if t in ("strings", "meta"):
            continue
        cols, a = _rows(s, ns, t)
        _, b = _rows(p, np_, t)
        if a != b:
            only_s = list((a - b).items())[:3]
            only_p = list((b - a).items())[:3]
            fail("%s: %d rows serially, %d in parallel; only serial: %s; only parallel: %s "
                 "(columns %s)" % (t, sum(a.values()), sum(b.values()), only_s, only_p, cols))
        total += sum(a.values())
        print("# %s: %d rows alike" % (t, sum(a.values())))
    for q, what in (("SELECT COUNT(*) FROM flows WHERE from_slice_id IS NULL OR to_slice_id IS "
                     "NULL", "arrows without both slices"),
                    ("SELECT COUNT(*) FROM device_ops WHERE launch_slice_id IS NULL AND "
                     "launch_thread_id IS NOT NULL", "device operations without their call")):
        n = [c.execute(q).fetchone()[0] for c in (s, p)]
        if n[0] != n[1]:
            fail("%s: %d serially, %d in parallel" % (what, n[0], n[1]))
    dup = p.execute("SELECT key, COUNT(*) FROM flows WHERE key IS NOT NULL GROUP BY key "
                    "HAVING COUNT(*) > 1").fetchall()
    if dup:
        fail("arrows share a key: %s" % dup[:3])
    if not total:
        fail("the serial database is empty")


main(globals())
