"""format-v1.py — for func/t-format-v1.sh: the chunk encodings of tprof trace files, and the
fingerprint of a Chrome trace that the analyzer of an earlier time wrote beside the profile
of tests/traces/tprof-v1 (chrome-fingerprint.txt)."""
import collections
import json
import struct

from checklib import main


def print_encodings(*paths):
    """The set of chunk encodings in the trace files, one per line."""
    seen = set()
    for path in paths:
        b = open(path, "rb").read()
        off = 64
        while off + 64 <= len(b):
            magic, enc, comp = (b[off:off + 4], struct.unpack_from("<I", b, off + 52)[0],
                                struct.unpack_from("<I", b, off + 44)[0])
            assert magic == b"TPCK", "no chunk at %d of %s" % (off, path)
            seen.add(enc)
            off += 64 + comp
        assert off == len(b), "trailing bytes in " + path
    print("\n".join(str(e) for e in sorted(seen)))


def print_fingerprint(trace):
    """The fingerprint: per (phase, category, name) the events and their summed duration
    (ns), and per name each set of arguments with how many events carry it."""
    d = json.load(open(trace))
    ev = d["traceEvents"] if isinstance(d, dict) else d
    count, dur, args = collections.Counter(), collections.Counter(), collections.Counter()
    for e in ev:
        if e.get("ph") == "M":
            continue
        k = (e.get("ph"), e.get("cat", ""), e.get("name", ""))
        count[k] += 1
        dur[k] += round(e.get("dur", 0) * 1000)
        a = e.get("args")
        if a:
            args[(k[2],) + tuple(sorted((x, str(y)) for x, y in a.items()
                                        if x not in ("correlation", "id")))] += 1
    for k in sorted(count):
        print("event", *k, count[k], dur[k], sep="\t")
    for k in sorted(args):
        print("args", *k, args[k], sep="\t")


main(globals())
