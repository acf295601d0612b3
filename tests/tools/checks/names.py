"""names.py — the checks of func/t-names.sh on what tprof-analyze wrote of apps/names (whose
table of hostile names RAW repeats): Chrome traces (plain and gzip-compressed) and the text
summary."""
import collections
import gzip

from checklib import fail, main
from chrome_trace import events, load

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
LONG = ("0123456789" * 1000)[:8160]


def _expect(b):
    """Valid UTF-8 sequences kept; every other byte becomes U+FFFD."""
    out, i = [], 0
    while i < len(b):
        c = b[i]
        n = (1 if c < 0x80 else 2 if 0xC0 <= c < 0xE0 else 3 if 0xE0 <= c < 0xF0 else
             4 if 0xF0 <= c < 0xF8 else 0)
        try:
            if not n:
                raise ValueError
            out.append(b[i:i + n].decode("utf-8"))
            i += n
        except ValueError:
            out.append("\ufffd")
            i += 1
    return "".join(out)


def _expected(kind):
    """The non-empty names of events of phase KIND and how many of each the program made."""
    want = collections.Counter()
    for i, raw in enumerate(RAW):
        if i != EMPTY:
            want[_expect(raw)] = i + 1
    if kind == "X":
        want[LONG] = 1
        for n in range(10):
            want["buf %d" % n] = 10
    if kind == "i":
        for n in range(5):
            want["bufmark %d" % n] = 3
    return want


def names_as_written(trace):
    """Every non-empty name comes back as written (invalid bytes as U+FFFD), with exact
    counts."""
    d = load(trace)
    ev = events(d)
    for kind in "XiC":
        got = collections.Counter(e["name"] for e in ev if e["ph"] == kind)
        got.pop("", None)
        for n in [n for n in got if n.startswith("(unknown string")]:
            del got[n]
        want = _expected(kind)
        if got != want:
            diff = {n: (got[n], want[n]) for n in set(got) | set(want) if got[n] != want[n]}
            fail("ph %s: (got, want) by name: %r" % (kind, diff))


def empty_name(trace):
    """The empty name comes back empty, with its exact count."""
    d = load(trace)
    for kind in "XiC":
        got = collections.Counter(e["name"] for e in events(d) if e["ph"] == kind)
        if got[""] != EMPTY + 1:
            fail("ph %s: %d events with an empty name, want %d; other names: %r" % (
                kind, got[""], EMPTY + 1, [n for n in got if n.startswith("(unknown")]))


def counters_and_long_name(trace):
    """Each counter sample is under its own name; the 10000-byte name is cut to 8160 bytes."""
    d = load(trace)
    index = {_expect(r): i for i, r in enumerate(RAW)}
    bad = [(e["name"][:40], e["args"]["value"]) for e in events(d) if e["ph"] == "C"
           and e["name"] in index and e["args"]["value"] != index[e["name"]]]
    if bad:
        fail("counter values under the wrong name: %r" % bad[:5])
    longs = [e for e in events(d) if len(e["name"]) > 100]
    if len(longs) != 1 or len(longs[0]["name"].encode()) != 8160:
        fail("long names: %r" % [len(e["name"]) for e in longs])


def gzip_same(plain, gz):
    """The gzip trace parses with gzip+json and holds the same events as the plain one."""
    a = load(plain)
    b = load(gz)
    if a["traceEvents"] != b["traceEvents"] or gzip.open(gz).read(2) != b"{\"":
        fail("the gzip trace differs from the plain one")


def marks_rows(summary):
    """The summary prints one line per mark name (19), control bytes and all."""
    lines = open(summary, encoding="utf-8", errors="replace").read().split("\n")
    i = lines.index("Marks")
    rows = []
    for line in lines[i + 2:]:
        if not line.strip():
            break
        rows.append(line)
    if len(rows) != 19:
        fail("Marks table has %d rows, want 19 (one line per name):\n%s" %
             (len(rows), "\n".join(rows)))


main(globals())
