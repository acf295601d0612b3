#!/bin/sh
# A program with idle gaps of known sizes between the kernels of device 0 (made on the device
# timeline, so the host's speed does not matter: gaps of 0 inside bursts, and of 300 us, 3 ms
# and 25 ms while device 0 waits for a timer kernel on device 1): the summary's busy time and
# busy share, and its histogram of idle gaps, come out as the program made them.
. "$(dirname "$0")/lib.sh"
need_hip hip-gaps
plan 5

# Longer keys first: the stand-in takes the first key that is part of a kernel's name.
export STANDIN_HIP_KERNEL_US="warmup:100000,busy:1000,timer25000:25000,timer3000:3000,timer300:300"
out="$T/out"
"$INSPECT" -o "$out" -- "$APPS/hip-gaps" >"$T/stdout" 2>"$T/stderr"
ok $? "the program runs under tprof-inspect"
check "it made 24 kernels on device 0" grep -qx 'kernels=24 tiny=14 mid=4 ms=3 long=2' "$T/stdout"
"$ANALYZE" "$out" --summary >"$T/summary" 2>"$T/analyze.err"
ok $? "tprof-analyze prints the summary"
check "GPU 0 was busy 100 ms + 23 x 1 ms, within 5%, and its busy share is that over the covered time" py '
import re, sys
s = open(sys.argv[1]).read()
def ns(v, u): return float(v) * {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[u]
cov = re.search(r"^Devices: busy share of the covered time \(([\d.]+) (ns|us|ms|s)\)", s, re.M)
row = re.search(r"^\s*([\d.]+) %\s+([\d.]+) (ns|us|ms|s)\s+24\s+GPU 0 of", s, re.M)
if not cov or not row: sys.exit("no device table:\n" + s)
busy, covered = ns(row.group(2), row.group(3)), ns(cov.group(1), cov.group(2))
if abs(busy - 123e6) > 0.05 * 123e6: sys.exit("busy %.0f ns" % busy)
if abs(float(row.group(1)) - 100 * busy / covered) > 0.11: sys.exit("share %s of %s / %s" % (row.group(1), busy, covered))
' "$T/summary"
check "the gap histogram of GPU 0: 14 under 10 us, 4 in 100 us-1 ms, 3 in 1-10 ms, 2 over 10 ms" py '
import re, sys
s = open(sys.argv[1]).read()
want = {"< 10 us": 14, "10-20 us": 0, "20-50 us": 0, "50-100 us": 0, "100 us-1 ms": 4, "1-10 ms": 3, "> 10 ms": 2}
head = re.search(r"^Gap\s.*$", s, re.M)
cols = re.findall(r"GPU (\d+) \(p\d+\)", head.group(0)) if head else []
if "0" not in cols:
    sys.exit("no GPU 0 column in the gap histogram\n" + s)
col = cols.index("0")
for label, n in want.items():
    m = re.search(r"^" + re.escape(label) + r"((?:\s+[\d,]+\s+[\d.]+ (?:ns|us|ms|s))+)\s*$", s, re.M)
    cells = re.findall(r"([\d,]+)\s+[\d.]+ (?:ns|us|ms|s)", m.group(1)) if m else []
    got = int(cells[col].replace(",", "")) if len(cells) > col else None
    if got != n:
        sys.exit("%s: %s, want %d\n%s" % (label, got, n, s))
' "$T/summary"
finish
