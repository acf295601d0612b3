"""fuzz-finds.py — for func/t-fuzz-finds.sh: the inputs of the fuzz targets laid out as the
targets hand them to tprof-analyze (tests/fuzz/fuzz-records.c, fuzz-render.c), and the check
of what the fix of a find made true (a JSON summary)."""
import json
import struct
import zlib

from checklib import fail, main


def records_chunk(path, directory):
    """Writes directory/p/fz.1.00000001.tpf: a chunk file around the payload of the input at
    path, as fuzz-records.c makes it (its first byte chooses the records' kind).  Fails on an
    empty input."""
    b = open(path, "rb").read()
    if not b:
        fail("%s: empty" % path)
    pay = b[1:]
    n = len(pay)
    fh = bytearray(64)
    struct.pack_into("<8sHHIQII", fh, 0, b"TPROF\0TR", 1, 64, 0x01020304, 1, 1, 0)
    struct.pack_into("<I", fh, 60, zlib.crc32(bytes(fh[:60])))
    ch = bytearray(64)
    units, records = n // 4 + 1, n // 7 + 1
    struct.pack_into("<4sHHIIIIQQIIIIII", ch, 0, b"TPCK", 1, 64, 1, 0, 0, units, 0, 0, n, n, 0,
                     2 if b[0] & 1 else 4, records, 0)
    struct.pack_into("<I", ch, 60, zlib.crc32(bytes(ch[:60])))
    open(directory + "/p/fz.1.00000001.tpf", "wb").write(bytes(fh) + bytes(ch) + pay)


def live_spools(path, d):
    """Writes the spools of the input at path under d/p as fuzz-live.c does: its first byte,
    modulo 3, the number of spools less one, the lengths of all but the last (four bytes
    little-endian, cut to what is left), then the spools.  Fails on an input too short."""
    b = open(path, "rb").read()
    if not b:
        fail("%s: empty" % path)
    n = 1 + b[0] % 3
    at = 1 + 4 * (n - 1)
    if len(b) < at:
        fail("%s: too short" % path)
    for i in range(n):
        length = len(b) - at
        if i + 1 < n:
            length = min(struct.unpack_from("<I", b, 1 + 4 * i)[0], length)
        open("%s/p/fz.%d.0000000%d.spool" % (d, i + 1, i + 1), "wb").write(b[at:at + length])
        at += length


def render_args(path, d):
    """The layout and the choice of output of fuzz-render.c: writes the chunk file (and the
    spool) of the input at path under d/p, and prints tprof-analyze's arguments.  Fails on an
    input too short."""
    b = open(path, "rb").read()
    if len(b) < 5:
        fail("%s: %d bytes, fewer than 5" % (path, len(b)))
    sel, n = b[0], struct.unpack_from("<I", b, 1)[0]
    b = b[5:]
    n = min(n, len(b))
    open(d + "/p/fz.1.00000001.tpf", "wb").write(b[:n])
    if len(b) > n:
        open(d + "/p/fz.1.00000001.spool", "wb").write(b[n:])
    g = ["process", "domain", "neuroncore", "instance"][sel >> 3 & 3]
    win = ["--start", "10", "--end", "200000"] if sel & 0x20 else []
    out = [["-s"], ["--summary=json"], ["-f", "chrome", "-o", d + "/t.json", "--group-by", g],
           ["-f", "perfetto", "-o", d + "/t.pftrace", "--group-by", g],
           ["-f", "otf2", "-o", d + "/t.otf2"], ["-f", "sqlite", "-o", d + "/t.db"],
           ["-f", "chrome", "--split", "size:0.01", "-o", d + "/t.json"]][min(sel & 7, 6)]
    print(" ".join([d + "/p"] + out + win))


def nothing_timed(path):
    """The trace starts at 0 and lasts 0."""
    h = json.load(open(path))["header"]
    if not (h["trace_start_unix_ns"] == 0 and h["wall_time_ns"] == 0):
        fail(str(h))


main(globals())
