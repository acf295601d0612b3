"""damaged.py — for func/t-damaged.sh: the chunks of a tprof trace file (.tpf), and the checks
that what the analyzer still reads of a damaged copy (its Chrome trace) is intact against the
Chrome trace of the undamaged one."""
import collections
import struct

from checklib import fail, main
from chrome_trace import events, load, ns


def print_chunks(path):
    """One line per chunk of the trace file, "offset stream seq records payload_length";
    fails when the file is not a file header and a sequence of chunks."""
    b = open(path, "rb").read()
    off = 64
    while off + 64 <= len(b):
        (magic, ver, hsz, stream, seq, first, units, tf, tl, raw, comp, pcrc, enc, recs,
         hcrc) = struct.unpack_from("<4sHHIIIIQQIIIIII", b, off)
        assert magic == b"TPCK", "no chunk at %d" % off
        print(off, stream, seq, recs, comp)
        off += 64 + comp
    assert off == len(b), "trailing bytes"


def intact(good_path, bad_path, mode):
    """What survives in the damaged trace must be in the good one: per (thread, name) no
    more ranges, marks or samples than the original; every counter sample (its value is the
    iteration number, unique per thread) and, with MODE "exact", every mark at the same time
    ("loose": per kind only)."""
    good = load(good_path)
    bad = load(bad_path)
    exact = mode == "exact"
    ge, be = events(good), events(bad)
    if not be or len(be) >= len(ge):
        fail("%d events survive of %d" % (len(be), len(ge)))
    gc = collections.Counter((e["tid"], e["ph"], e["name"]) for e in ge)
    bc = collections.Counter((e["tid"], e["ph"], e["name"]) for e in be)
    over = {k: (v, gc[k]) for k, v in bc.items() if v > gc[k]}
    if exact and over:
        fail("more than the original (got, original): %s" % over)

    def samples(evs):
        return collections.Counter((e["tid"] if exact else 0, e["args"]["value"])
                                   for e in evs if e["ph"] == "C")
    if not exact:
        # without the process stream, threads and names are not known: compare per kind
        gk, bk = collections.Counter(e["ph"] for e in ge), collections.Counter(e["ph"] for e in be)
        if bk - gk:
            fail("more events of a kind than the original: %s" % dict(bk - gk))
    gs, bs = samples(ge), samples(be)
    if bs - gs:
        fail("counter samples not in the original: %s" % list((bs - gs).elements())[:10])
    if exact:
        gm = collections.Counter((e["tid"], e["name"], ns(e["ts"])) for e in ge if e["ph"] == "i")
        bm = collections.Counter((e["tid"], e["name"], ns(e["ts"])) for e in be if e["ph"] == "i")
        if bm - gm:
            fail("marks not in the original: %s" % list((bm - gm).elements())[:10])
    print("%d of %d events survive" % (len(be), len(ge)))


def same_trace(good_path, other_path):
    """The trace is exactly the undamaged one."""
    a = load(good_path)
    b = load(other_path)
    if events(a) != events(b):
        fail("the trace changed: %d events, was %d" % (len(events(b)), len(events(a))))


main(globals())
