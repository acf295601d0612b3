#!/usr/bin/env python3
"""pftrace.py — reads a Perfetto trace the way a test must trust it: decoded by protoc against
Perfetto's schema (tests/perfetto/perfetto_trace.proto), every compressed_packets bundle
inflated and decoded as well, then interpreted as trace processor does (sequences, their
incremental state, interning, defaults and clocks), checked, and compared with the Chrome
trace of the same profile.

Usage:
  pftrace.py check TRACE.pftrace              checks; prints what it found as JSON
  pftrace.py compare TRACE.pftrace TRACE.json  checks, and compares with the Chrome trace:
                                              every slice, instant, counter sample,
                                              cross-thread range, flow arrow and CPU sample,
                                              with its track, times, name, category and
                                              arguments (a CPU sample: its CPU and stack);
                                              the processes and tracks, named and ordered
  pftrace.py compare --flows-outside-slices TRACE.pftrace TRACE.json
                                              the same where an imported trace's flow events
                                              may lie in no slice (Chrome's allow it): such
                                              ends are counted ("unanchored"), not refused
  pftrace.py check --flow-halves TRACE.pftrace
                                              the same for one part of a trace the parallel
                                              analyzer wrote: an arrow's id may have one end
                                              only (the other is another part's), counted
                                              ("flow_halves")
  pftrace.py samples TRACE.pftrace            checks; prints every CPU sample (PerfSample)
                                              as JSON: ts, pid, tid, cpu, mode, and its stack
                                              innermost first, [function, mapping path]

Checks: protoc decodes the file and every bundle; every TrackEvent and interned data come
after their sequence's SEQ_INCREMENTAL_STATE_CLEARED (and so does every packet flagged
SEQ_NEEDS_INCREMENTAL_STATE); every iid resolves on its sequence;
every TrackEvent's track has a descriptor (and every parent too); counter values only on
counter tracks; every interned entry is defined once per sequence; every CPU sample's
callstack, frames, function names and mappings resolve on its sequence and its thread has a
descriptor; every flow id appears once as a start and once as an end; on each track,
slices nest (every end closes an open slice, none left open) and each flow end lies inside a
slice of its track.  Exits non-zero saying what is wrong.
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import zlib

PROTO_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "perfetto")
PROTOC = os.environ.get("PROTOC", "protoc")

problems = []


def problem(msg):
    if len(problems) < 50:
        problems.append(msg)


# ---- the wire, only to find the bundles ---------------------------------------------------

def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    """(field, wire type, value) of a message: bytes for length-delimited fields."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
            if i > len(b):
                raise ValueError("truncated field %d" % f)
        else:
            raise ValueError("wire type %d" % wt)
        yield f, wt, v


def expand(data):
    """The file's packets with each bundle replaced by the packets inflated from it, as one
    Trace; and how many packets and bundles there were."""
    out = bytearray()
    npackets = nbundles = 0
    for f, wt, packet in fields(data):
        if f != 1 or wt != 2:
            raise ValueError("top-level field %d is not Trace.packet" % f)
        npackets += 1
        inner = [v for g, w, v in fields(packet) if g == 50 and w == 2]
        if not inner:
            out += b"\x0a" + enc_varint(len(packet)) + packet
            continue
        nbundles += 1
        if len(packet) + 2 + len(enc_varint(len(packet))) > 512 * 1024:
            problem("a compressed_packets packet of %d bytes (limit: 512 KiB)" % len(packet))
        raw = zlib.decompress(inner[0])
        for g, w, p in fields(raw):
            if g != 1 or w != 2:
                raise ValueError("a bundle holds field %d, not Trace.packet" % g)
            out += b"\x0a" + enc_varint(len(p)) + p
    return bytes(out), npackets, nbundles


def enc_varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


# ---- protoc and its text format -----------------------------------------------------------

def protoc_decode(data):
    r = subprocess.run([PROTOC, "--decode=perfetto.protos.Trace", "-I" + PROTO_DIR,
                        "perfetto_trace.proto"], input=data, capture_output=True)
    if r.returncode != 0:
        sys.exit("protoc --decode failed: %s" % r.stderr.decode(errors="replace")[:500])
    return r.stdout.decode("utf-8", errors="replace")


ESC = {"n": 10, "r": 13, "t": 9, '"': 34, "'": 39, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11}


def unescape(s):
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c != "\\":
            out += c.encode()
            i += 1
            continue
        c = s[i + 1]
        if c in ESC:
            out.append(ESC[c])
            i += 2
        elif c in "01234567":
            m = re.match(r"[0-7]{1,3}", s[i + 1:])
            out.append(int(m.group(0), 8) & 0xFF)
            i += 1 + len(m.group(0))
        elif c == "x":
            m = re.match(r"[0-9a-fA-F]{1,2}", s[i + 2:])
            out.append(int(m.group(0), 16))
            i += 2 + len(m.group(0))
        else:
            out += c.encode()
            i += 2
    return bytes(out).decode("utf-8", errors="replace")


class Msg:
    """A decoded message: its fields in order, (name, value)."""
    __slots__ = ("f",)

    def __init__(self):
        self.f = []

    def get(self, name, default=None):
        for k, v in self.f:
            if k == name:
                return v
        return default

    def all(self, name):
        return [v for k, v in self.f if k == name]

    def has(self, name):
        return any(k == name for k, _ in self.f)


def scalar(v):
    if v.startswith('"'):
        return unescape(v[1:-1])
    if v in ("true", "false"):
        return v == "true"
    if re.fullmatch(r"-?\d+", v):
        return int(v)
    if re.fullmatch(r"-?(inf|nan|infinity|[\d.]+(e[+-]?\d+)?)", v, re.I):
        return float(v)
    return v   # an enum's name


def parse_text(text):
    root = Msg()
    stack = [root]
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
        elif line.endswith("{"):
            m = Msg()
            stack[-1].f.append((line[:-1].strip(), m))
            stack.append(m)
        else:
            k, _, v = line.partition(": ")
            stack[-1].f.append((k, scalar(v)))
    return root.all("packet")


# ---- the trace, as trace processor reads it ----------------------------------------------

INTERNED = ("event_names", "event_categories", "debug_annotation_names",
            "debug_annotation_string_values", "function_names", "mapping_paths")
# interned whole messages, by iid: the callstacks of CPU samples
PROFILE = ("frames", "callstacks", "mappings")


class Seq:
    def __init__(self):
        self.valid = False
        self.clear()

    def clear(self):
        self.interned = {k: {} for k in INTERNED + PROFILE}
        self.defaults = None
        self.clocks = {}


class Trace:
    def __init__(self, packets):
        self.seqs = collections.defaultdict(Seq)
        self.descs = {}
        self.events = []            # dicts: track uuid, ts, packet index, type, name, ...
        self.samples = []           # dicts: ts, pid, tid, cpu, mode, stack (PerfSample)
        self.realtime = None
        self.npackets = len(packets)
        for i, p in enumerate(packets):
            self.packet(i, p)

    def packet(self, i, p):
        sid = p.get("trusted_packet_sequence_id", 0)
        seq = self.seqs[sid]
        flags = p.get("sequence_flags", 0)
        if flags & 1:
            seq.clear()
            seq.valid = True
        if flags & 2 and not seq.valid:
            problem("packet %d needs incremental state; sequence %d was never cleared" % (i, sid))
        if p.has("trace_packet_defaults"):
            seq.defaults = p.get("trace_packet_defaults")
        for d in p.all("interned_data"):
            if not seq.valid:
                # trace processor ignores it until the sequence's state is cleared
                problem("packet %d: interned data on sequence %d, never cleared" % (i, sid))
                continue
            for kind, table in seq.interned.items():
                for e in d.all(kind):
                    if e.get("iid") in table:
                        # each is interned once per sequence
                        problem("packet %d: %s iid %s defined again on sequence %d" %
                                (i, kind, e.get("iid"), sid))
                    table[e.get("iid")] = e if kind in PROFILE else e.get("name", e.get("str"))
        cs = p.get("clock_snapshot")
        if cs:
            for c in cs.all("clocks"):
                cid = c.get("clock_id")
                if 64 <= cid < 128:
                    seq.clocks[cid] = [c.get("timestamp", 0), bool(c.get("is_incremental"))]
                elif cid == 1:
                    self.realtime = c.get("timestamp")
            return
        ts = self.timestamp(i, p, seq)
        td = p.get("track_descriptor")
        if td:
            self.descs[td.get("uuid", 0)] = td
        te = p.get("track_event")
        if te:
            self.track_event(i, p, te, seq, sid, ts)
        ps = p.get("perf_sample")
        if ps:
            self.perf_sample(i, ps, seq, sid, ts)

    def perf_sample(self, i, ps, seq, sid, ts):
        """A CPU sample: its stack resolved on its sequence, innermost frame first, each frame
        (function, mapping path)."""
        if not seq.valid:
            problem("packet %d: a PerfSample on sequence %d, never cleared" % (i, sid))
        stack = []
        if ps.has("callstack_iid"):
            cs = self.lookup(seq, sid, "callstacks", ps.get("callstack_iid"), i)
            for fid in (cs.all("frame_ids") if cs != "?" else []):
                f = self.lookup(seq, sid, "frames", fid, i)
                if f == "?":
                    continue
                fn = self.lookup(seq, sid, "function_names", f.get("function_name_id"), i)
                m = self.lookup(seq, sid, "mappings", f.get("mapping_id"), i)
                path = "/".join(self.lookup(seq, sid, "mapping_paths", x, i)
                                for x in (m.all("path_string_ids") if m != "?" else []))
                stack.append((fn, path))
            stack.reverse()
        self.samples.append(dict(ts=ts, i=i, seq=sid, pid=ps.get("pid"), tid=ps.get("tid"),
                                 cpu=ps.get("cpu"), mode=ps.get("cpu_mode"), stack=stack))

    def timestamp(self, i, p, seq):
        if not p.has("timestamp"):
            return None
        ts = p.get("timestamp")
        if ts >= 1 << 63:      # trace processor reads it as int64
            ts -= 1 << 64
        clock = p.get("timestamp_clock_id") or (seq.defaults.get("timestamp_clock_id")
                                                if seq.defaults else None) or 6
        if 64 <= clock < 128:
            c = seq.clocks.get(clock)
            if c is None:
                problem("packet %d: clock %d has no snapshot on its sequence" % (i, clock))
                return ts
            if c[1]:
                c[0] += ts
                return c[0]
            return ts
        if clock != 6:
            problem("packet %d: timestamp on clock %d" % (i, clock))
        return ts

    def lookup(self, seq, sid, table, iid, i):
        v = seq.interned[table].get(iid)
        if v is None:
            problem("packet %d: %s iid %d not defined on sequence %d" % (i, table, iid, sid))
            return "?"
        return v

    def annotation(self, a, seq, sid, i):
        if a.has("dict_entries"):
            return {self.lookup(seq, sid, "debug_annotation_names", e.get("name_iid"), i)
                    if e.has("name_iid") else e.get("name"): self.annotation(e, seq, sid, i)
                    for e in a.all("dict_entries")}
        if a.has("array_values"):
            return [self.annotation(e, seq, sid, i) for e in a.all("array_values")]
        for k in ("bool_value", "uint_value", "int_value", "string_value"):
            if a.has(k):
                return a.get(k)
        if a.has("double_value"):
            v = float(a.get("double_value"))
            return None if v != v or v in (float("inf"), float("-inf")) else v
        if a.has("pointer_value"):
            return "0x%x" % a.get("pointer_value")
        if a.has("string_value_iid"):
            return self.lookup(seq, sid, "debug_annotation_string_values",
                               a.get("string_value_iid"), i)
        return {}

    def track_event(self, i, p, te, seq, sid, ts):
        if not sid:
            problem("packet %d: a TrackEvent without a sequence" % i)
        elif not seq.valid:
            problem("packet %d: a TrackEvent on sequence %d, never cleared" % (i, sid))
        if ts is None:
            problem("packet %d: a TrackEvent without a timestamp" % i)
        uuid = te.get("track_uuid")
        if uuid is None and seq.defaults and seq.defaults.get("track_event_defaults"):
            uuid = seq.defaults.get("track_event_defaults").get("track_uuid")
        if uuid is None:
            problem("packet %d: a TrackEvent on no track" % i)
        name = te.get("name")
        if te.has("name_iid"):
            name = self.lookup(seq, sid, "event_names", te.get("name_iid"), i)
        cats = [self.lookup(seq, sid, "event_categories", c, i) for c in te.all("category_iids")]
        args = {}
        for a in te.all("debug_annotations"):
            key = (self.lookup(seq, sid, "debug_annotation_names", a.get("name_iid"), i)
                   if a.has("name_iid") else a.get("name"))
            args[key] = self.annotation(a, seq, sid, i)
        value = te.get("counter_value", te.get("double_counter_value"))
        self.events.append(dict(track=uuid, ts=ts, i=i, type=te.get("type"), name=name,
                                cat=",".join(cats), args=args, flows=te.all("flow_ids"),
                                ends=te.all("terminating_flow_ids"), value=value))


# ---- what the trace shows -----------------------------------------------------------------

def describe(t):
    """track uuid -> (process name, track name, rank or None, kind); process pid -> (name, rank)."""
    procs = {}
    for uuid, d in t.descs.items():
        if d.has("process"):
            pr = d.get("process")
            procs[pr.get("pid")] = (uuid, pr.get("process_name", ""), d.get("sibling_order_rank"))
    by_uuid = {u: v for u, v in procs.items()}
    proc_of_uuid = {v[0]: (pid, v[1]) for pid, v in procs.items()}
    tracks = {}
    children = []
    for uuid, d in t.descs.items():
        if d.has("process") or uuid == 0:
            continue
        rank = d.get("sibling_order_rank")
        if d.has("thread"):
            th = d.get("thread")
            pid = th.get("pid")
            if pid not in procs:
                problem("thread track %d: its process %s has no descriptor" % (uuid, pid))
                continue
            tracks[uuid] = (procs[pid][1], th.get("thread_name", ""), rank, "thread")
        else:
            children.append((uuid, d, rank))
    # a child of a process, or of a track under one (a thread's states under the thread)
    process_of = {u: p[1] for u, p in proc_of_uuid.items()}
    while children:
        left = []
        for uuid, d, rank in children:
            parent = d.get("parent_uuid")
            if parent in process_of:
                name = process_of[parent]
            elif parent in tracks:
                name = tracks[parent][0]
            else:
                left.append((uuid, d, rank))
                continue
            kind = "counter" if d.has("counter") else "child"
            tracks[uuid] = (name, d.get("name", ""), rank, kind)
        if len(left) == len(children):
            for uuid, d, rank in left:
                problem("track %d: its parent %s is not a described process or track" %
                        (uuid, d.get("parent_uuid")))
            break
        children = left
    del by_uuid
    return procs, tracks


def check(t):
    procs, tracks = describe(t)
    per_track = collections.defaultdict(list)
    for e in t.events:
        if e["track"] not in t.descs:
            problem("a %s event on track %s, which has no descriptor" % (e["type"], e["track"]))
            continue
        kind = tracks.get(e["track"], (None, None, None, None))[3]
        if (e["type"] == "TYPE_COUNTER") != (kind == "counter"):
            problem("a %s event on a %s track" % (e["type"], kind))
        per_track[e["track"]].append(e)
    threads = {(d.get("thread").get("pid"), d.get("thread").get("tid")) for d in t.descs.values()
               if d.has("thread")}
    for sm in t.samples:
        if (sm["pid"], sm["tid"]) not in threads:
            problem("a sample at %s of thread %s/%s, which has no descriptor" %
                    (sm["ts"], sm["pid"], sm["tid"]))
    starts = collections.Counter(f for e in t.events for f in e["flows"])
    ends = collections.Counter(f for e in t.events for f in e["ends"])
    t.halves = 0
    for f in set(starts) | set(ends):
        if flow_halves and starts[f] + ends[f] == 1:
            t.halves += 1
        elif starts[f] != 1 or ends[f] != 1:
            problem("flow %d: %d starts, %d ends" % (f, starts[f], ends[f]))
    slices, anchors = [], []
    for uuid, evs in per_track.items():
        evs.sort(key=lambda e: (e["ts"], e["i"]))
        stack = []
        for e in evs:
            if e["type"] == "TYPE_SLICE_BEGIN":
                stack.append(e)
            elif e["type"] == "TYPE_SLICE_END":
                if not stack:
                    problem("track %s: an end at %d, no slice open" % (tracks.get(uuid), e["ts"]))
                    continue
                b = stack.pop()
                slices.append((uuid, b, e["ts"]))
            elif e["flows"] or e["ends"]:
                anchors.append((uuid, e))
        if stack:
            problem("track %s: %d slices never end" % (tracks.get(uuid), len(stack)))
    # each arrow's end inside a slice of its track
    spans = collections.defaultdict(list)
    for uuid, b, t1 in slices:
        spans[uuid].append((b["ts"], t1))
    unanchored = 0
    for uuid, e in anchors:
        if not any(a <= e["ts"] <= z for a, z in spans[uuid]):
            unanchored += 1
            if not flows_outside_slices:
                problem("flow %s at %d on %s lies in no slice of its track" %
                        (e["flows"] or e["ends"], e["ts"], tracks.get(uuid)))
    t.unanchored = unanchored
    return procs, tracks, slices, anchors


def load(path):
    data = open(path, "rb").read()
    protoc_decode(data)   # the file as it is: bundles and all
    flat, npackets, nbundles = expand(data)
    t = Trace(parse_text(protoc_decode(flat)))
    t.file_packets, t.bundles, t.size = npackets, nbundles, len(data)
    return t


def perfetto_view(t, procs, tracks, slices, anchors):
    """Everything drawn, keyed by (process name, track name), in Chrome's units (ns)."""
    key = lambda u: tracks.get(u, ("?", "?"))[:2]
    v = collections.defaultdict(collections.Counter)
    for uuid, b, t1 in slices:
        v["slices"][(key(uuid), b["name"], b["cat"], b["ts"], t1, canon(b["args"]))] += 1
    for e in t.events:
        if e["type"] == "TYPE_INSTANT" and not e["flows"] and not e["ends"]:
            v["instants"][(key(e["track"]), e["name"], e["cat"], e["ts"], canon(e["args"]))] += 1
        elif e["type"] == "TYPE_COUNTER":
            v["counters"][(key(e["track"]), e["ts"], float(e["value"]))] += 1
    thread_track = {(d.get("thread").get("pid"), d.get("thread").get("tid")): u
                    for u, d in t.descs.items() if d.has("thread")}
    for sm in t.samples:
        stack = [fn for fn, path in sm["stack"]]
        nk = sum(path == "[kernel.kallsyms]" for fn, path in sm["stack"])
        v["samples"][(key(thread_track.get((sm["pid"], sm["tid"]))), stack[0] if stack else None,
                      sm["ts"], canon({"cpu": sm["cpu"], "kernel_frames": nk, "stack": stack}))] += 1
    ends = {f: (uuid, e) for uuid, e in anchors for f in e["ends"]}
    for uuid, e in anchors:
        for f in e["flows"]:
            if f in ends:
                eu, ee = ends[f]
                v["flows"][(e["cat"], e["name"], key(uuid), e["ts"], key(eu), ee["ts"],
                            canon(e["args"]))] += 1
    for uuid, (pname, tname, rank, kind) in tracks.items():
        if rank is not None:
            v["tracks"][(pname, tname, rank)] += 1
    used = {tracks[e["track"]][0] for e in t.events if e["track"] in tracks}
    for pid, (uuid, name, rank) in procs.items():
        if name in used:
            v["processes"][(name, rank)] += 1
    return v


def canon(x):
    """Arguments as comparable text: a whole double and an integer are the same number (JSON
    writes whole doubles without a fraction)."""
    def norm(v):
        if isinstance(v, dict):
            return {k: norm(w) for k, w in v.items()}
        if isinstance(v, list):
            return [norm(w) for w in v]
        if isinstance(v, float) and v.is_integer():
            return int(v)
        return v
    return json.dumps(norm(x), sort_keys=True)


def chrome_events(path):
    """The traceEvents of a Chrome trace, gzipped (.gz) or not."""
    import gzip
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)["traceEvents"]


_INSTANCE = re.compile(r'"nccl_instance": [0-9]+')


def without_instances(view):
    """A chrome_view with NCCL instance numbers left out of every argument list (the parallel
    analyzer's analysis processes number the instances they match)."""
    out = collections.defaultdict(collections.Counter)
    for what, c in view.items():
        for key, n in c.items():
            out[what][tuple(_INSTANCE.sub('"nccl_instance": "#"', x) if isinstance(x, str)
                            else x for x in key)] += n
    return out


def chrome_view(path):
    ev = chrome_events(path)
    pname, psort, tname, tsort = {}, {}, {}, {}
    for e in ev:
        if e["ph"] != "M":
            continue
        a = e["args"]
        if e["name"] == "process_name":
            pname[e["pid"]] = a["name"]
        elif e["name"] == "process_sort_index":
            psort[e["pid"]] = a["sort_index"]
        elif e["name"] == "thread_name":
            tname[(e["pid"], e["tid"])] = a["name"]
        elif e["name"] == "thread_sort_index":
            tsort[(e["pid"], e["tid"])] = a["sort_index"]
    ns = lambda x: int(round(x * 1000))
    key = lambda e: (pname.get(e["pid"], ""), tname.get((e["pid"], e["tid"]), ""))
    v = collections.defaultdict(collections.Counter)
    opened = {}
    starts, finishes = {}, {}
    # Complete events become begin/end pairs as the Perfetto writer emits them (in the order
    # they come, begin then end), paired again as trace processor pairs them: in time order,
    # an end closing the latest slice open on its track.  For slices that nest this is the
    # Chrome trace's own; for a thread's calls that overlap without nesting (bad clocks),
    # it is what Perfetto can show of them.
    edges = collections.defaultdict(list)
    for n, e in enumerate(ev):
        if e["ph"] == "X":
            t0 = ns(e["ts"])
            edges[(e["pid"], e["tid"])] += [(t0, 2 * n, e), (t0 + ns(e["dur"]), 2 * n + 1, None)]
    for k, es in edges.items():
        es.sort(key=lambda x: (x[0], x[1]))
        stack = []
        for t, _, e in es:
            if e is not None:
                stack.append((t, e))
                continue
            t0, b = stack.pop()
            v["slices"][(key(b), b["name"], b["cat"], t0, t, canon(b.get("args", {})))] += 1
            if t0 + ns(b["dur"]) != t:
                v["unnested"][k] += 1
    for e in ev:
        ph = e["ph"]
        if ph == "i" and "stack" in e.get("args", {}) and "cpu" in e.get("args", {}):
            a = e["args"]
            v["samples"][(key(e), a["stack"][0] if a["stack"] else None, ns(e["ts"]),
                          canon(a))] += 1
        elif ph == "i":
            v["instants"][(key(e), e["name"], e["cat"], ns(e["ts"]), canon(e.get("args", {})))] += 1
        elif ph == "C":
            v["counters"][((pname.get(e["pid"], ""), e["name"]), ns(e["ts"]),
                           float(e["args"]["value"]))] += 1
        elif ph == "b":
            opened[(e["cat"], e["name"], e["id"])] = e
        elif ph == "e":
            b = opened.pop((e["cat"], e["name"], e["id"]))
            v["slices"][((pname.get(b["pid"], ""), b["name"]), b["name"], b["cat"], ns(b["ts"]),
                         ns(e["ts"]), canon(b.get("args", {})))] += 1
        elif ph == "s":
            starts[(e["cat"], e["name"], e["id"])] = e
        elif ph == "f":
            finishes[(e["cat"], e["name"], e["id"])] = e
    for k, s in starts.items():
        f = finishes.get(k)
        if f:
            v["flows"][(s["cat"], s["name"], key(s), ns(s["ts"]), key(f), ns(f["ts"]),
                        canon(s.get("args", {})))] += 1
    used = {e["pid"] for e in ev if e["ph"] != "M"}
    for k, name in tname.items():
        v["tracks"][(pname.get(k[0], ""), name, tsort.get(k))] += 1
    for pid in used:
        v["processes"][(pname.get(pid, ""), psort.get(pid))] += 1
    return v


def compare(pv, cv):
    for what in ("processes", "tracks", "slices", "instants", "counters", "flows", "samples"):
        a, b = pv[what], cv[what]
        if a == b:
            continue
        only_p = list((a - b).elements())[:3]
        only_c = list((b - a).elements())[:3]
        problem("%s differ: %d in Perfetto, %d in Chrome; only in Perfetto: %s; only in Chrome: %s"
                % (what, sum(a.values()), sum(b.values()), only_p, only_c))


flows_outside_slices = False
flow_halves = False


def main():
    global flows_outside_slices, flow_halves
    if "--flows-outside-slices" in sys.argv:
        sys.argv.remove("--flows-outside-slices")
        flows_outside_slices = True
    if "--flow-halves" in sys.argv:
        sys.argv.remove("--flow-halves")
        flow_halves = True
    if len(sys.argv) < 3 or sys.argv[1] not in ("check", "compare", "samples"):
        sys.exit(__doc__)
    t = load(sys.argv[2])
    procs, tracks, slices, anchors = check(t)
    pv = perfetto_view(t, procs, tracks, slices, anchors)
    summary = {w: sum(pv[w].values()) for w in ("processes", "tracks", "slices", "instants",
                                                "counters", "flows", "samples")}
    if sys.argv[1] == "samples":
        json.dump(t.samples, sys.stdout)
        print()
        for p in problems:
            print("pftrace: " + p, file=sys.stderr)
        sys.exit(1 if problems else 0)
    if sys.argv[1] == "compare":
        cv = chrome_view(sys.argv[3])
        compare(pv, cv)
        # slices of one track that overlap without nesting (calls timed by bad clocks)
        summary["chrome_unnested"] = sum(cv["unnested"].values())
    if flow_halves:
        summary["flow_halves"] = t.halves
    summary.update(packets=t.npackets, bundles=t.bundles, bytes=t.size, unanchored=t.unanchored,
                   sequences=len([s for s in t.seqs if s]), realtime=t.realtime)
    print(json.dumps(summary, sort_keys=True))
    if problems:
        for p in problems:
            print("pftrace: " + p, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
