#!/bin/sh
# Hostile names for ranges, marks and counters (apps/names.c holds the same table as the
# Python below): the Chrome trace must stay valid JSON and give each name back as the
# program wrote it: valid UTF-8 kept, each byte that is not part of valid UTF-8 turned
# into U+FFFD, control characters escaped, the empty name empty, a 10000-byte name cut to
# 8160 bytes, and names in a reused buffer each kept as they were at the call.
. "$(dirname "$0")/lib.sh"
plan 8

"$INSPECT" -o "$T/out" -- "$APPS/names" >"$T/out.txt" 2>"$T/err.txt" && grep -qx 'names=14' "$T/out.txt"
ok $? "the program runs under tprof-inspect"
"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"

NAMES='
RAW = [
    b"plain",
    b"double \"quoted\" name",
    b"back\\slash and \\\\ two",
    b"newline\nand\ttab\rcr",
    bytes(range(1, 32)),
    b"del \x7f here",
    b"lone \xff byte",
    b"truncated \xe6\xbc",
    b"truncated at end \xf0\x9f\x98",
    b"overlong \xc0\xaf slash",
    b"surrogate \xed\xa0\x80 half",
    b"caf\xc3\xa9 \xe6\xbc\xa2 \xf0\x9f\x98\x80",
    b"",
    b"</script><b>&amp;\x27",
]
EMPTY = RAW.index(b"")
def expect(b):
    """Valid UTF-8 sequences kept; every other byte becomes U+FFFD."""
    out, i = [], 0
    while i < len(b):
        c = b[i]
        n = 1 if c < 0x80 else 2 if 0xC0 <= c < 0xE0 else 3 if 0xE0 <= c < 0xF0 else 4 if 0xF0 <= c < 0xF8 else 0
        try:
            if not n:
                raise ValueError
            out.append(b[i:i + n].decode("utf-8"))
            i += n
        except ValueError:
            out.append("\ufffd")
            i += 1
    return "".join(out)
LONG = ("0123456789" * 1000)[:8160]
def expected(kind):
    want = collections.Counter()
    for i, raw in enumerate(RAW):
        if i != EMPTY:
            want[expect(raw)] = i + 1
    if kind == "X":
        want[LONG] = 1
        for n in range(10):
            want["buf %d" % n] = 10
    if kind == "i":
        for n in range(5):
            want["bufmark %d" % n] = 3
    return want
'

pyc "$NAMES"'
d = load(sys.argv[1])
ev = events(d)
for kind in "XiC":
    got = collections.Counter(e["name"] for e in ev if e["ph"] == kind)
    got.pop("", None)
    for n in [n for n in got if n.startswith("(unknown string")]:
        del got[n]
    want = expected(kind)
    if got != want:
        diff = {n: (got[n], want[n]) for n in set(got) | set(want) if got[n] != want[n]}
        sys.exit("ph %s: (got, want) by name: %r" % (kind, diff))
' "$T/trace.json"
ok $? "every non-empty name comes back as written (invalid bytes as U+FFFD), with exact counts"

pyc "$NAMES"'
d = load(sys.argv[1])
for kind in "XiC":
    got = collections.Counter(e["name"] for e in events(d) if e["ph"] == kind)
    if got[""] != EMPTY + 1:
        sys.exit("ph %s: %d events with an empty name, want %d; other names: %r" % (
            kind, got[""], EMPTY + 1, [n for n in got if n.startswith("(unknown")]))
' "$T/trace.json"
ok $? "the empty name comes back empty, with its exact count"

pyc "$NAMES"'
d = load(sys.argv[1])
bad = [(e["name"][:40], e["args"]["value"]) for e in events(d) if e["ph"] == "C"
       and e["name"] in {expect(r): i for i, r in enumerate(RAW)}
       and e["args"]["value"] != {expect(r): i for i, r in enumerate(RAW)}[e["name"]]]
if bad:
    sys.exit("counter values under the wrong name: %r" % bad[:5])
longs = [e for e in events(d) if len(e["name"]) > 100]
if len(longs) != 1 or len(longs[0]["name"].encode()) != 8160:
    sys.exit("long names: %r" % [len(e["name"]) for e in longs])
' "$T/trace.json"
ok $? "each counter sample is under its own name; the 10000-byte name is cut to 8160 bytes"

"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json.gz" 2>>"$T/analyze.err"
ok $? "tprof-analyze writes a gzip-compressed Chrome trace"
pyc '
a = load(sys.argv[1]); b = load(sys.argv[2])
if a["traceEvents"] != b["traceEvents"] or gzip.open(sys.argv[2]).read(2) != b"{\"":
    sys.exit("the gzip trace differs from the plain one")
' "$T/trace.json" "$T/trace.json.gz"
ok $? "the gzip trace parses with gzip+json and holds the same events"

"$ANALYZE" "$T/out" --summary >"$T/summary" 2>>"$T/analyze.err" &&
	py '
import sys
lines = open(sys.argv[1], encoding="utf-8", errors="replace").read().split("\n")
i = lines.index("Marks")
rows = []
for l in lines[i + 2:]:
    if not l.strip():
        break
    rows.append(l)
if len(rows) != 19:
    sys.exit("Marks table has %d rows, want 19 (one line per name):\n%s" % (len(rows), "\n".join(rows)))
' "$T/summary"
ok $? "the summary prints one line per mark name (19), control bytes and all"
finish
