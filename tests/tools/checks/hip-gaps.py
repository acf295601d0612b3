"""hip-gaps.py — the checks of func/t-hip-gaps.sh on the text summary of apps/hip-gaps's
profile: the device table and the histogram of idle gaps."""
import re

from checklib import fail, main


def _ns(v, u):
    return float(v) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[u]


def busy(path):
    """GPU 0 was busy 100 ms + 23 x 1 ms, within 5 %, and its busy share is that over the
    covered time."""
    s = open(path).read()
    cov = re.search(r"^Devices: busy share of the covered time \(([\d.]+) (ns|us|ms|s)\)", s,
                    re.M)
    row = re.search(r"^\s*([\d.]+) %\s+([\d.]+) (ns|us|ms|s)\s+24\s+GPU 0 of", s, re.M)
    if not cov or not row:
        fail("no device table:\n" + s)
    b, covered = _ns(row.group(2), row.group(3)), _ns(cov.group(1), cov.group(2))
    if abs(b - 123e6) > 0.05 * 123e6:
        fail("busy %.0f ns" % b)
    if abs(float(row.group(1)) - 100 * b / covered) > 0.11:
        fail("share %s of %s / %s" % (row.group(1), b, covered))


def gaps(path):
    """The gap histogram of GPU 0: 14 under 10 us, 4 in 100 us-1 ms, 3 in 1-10 ms, 2 over
    10 ms."""
    s = open(path).read()
    want = {"< 10 us": 14, "10-20 us": 0, "20-50 us": 0, "50-100 us": 0, "100 us-1 ms": 4,
            "1-10 ms": 3, "> 10 ms": 2}
    head = re.search(r"^Gap\s.*$", s, re.M)
    cols = re.findall(r"GPU (\d+) \(p\d+\)", head.group(0)) if head else []
    if "0" not in cols:
        fail("no GPU 0 column in the gap histogram\n" + s)
    col = cols.index("0")
    for label, n in want.items():
        m = re.search(r"^" + re.escape(label) + r"((?:\s+[\d,]+\s+[\d.]+ (?:ns|us|ms|s))+)\s*$",
                      s, re.M)
        cells = re.findall(r"([\d,]+)\s+[\d.]+ (?:ns|us|ms|s)", m.group(1)) if m else []
        got = int(cells[col].replace(",", "")) if len(cells) > col else None
        if got != n:
            fail("%s: %s, want %d\n%s" % (label, got, n, s))


main(globals())
