"""analyze-progress.py — the checks of func/t-analyze-progress.sh on what tprof-analyze
drew of its progress line: each is given FILE, what a terminal received (or stderr, with
--progress and stderr to a file)."""
import re

from checklib import fail, main

PASS = re.compile(r"tprof-analyze: (merging|finding steps) (\S+)/(\S+) records \((\d+)%\), "
                  r"(\S+) records/s(, (\d+:)?\d+:\d\d left)?")
READ = re.compile(r"tprof-analyze: reading ([0-9.]+)/([0-9.]+) (B|KiB|MiB) \((\d+)%\), "
                  r"(\S+) records, [0-9.]+ (B|KiB|MiB|GiB)/s(, (\d+:)?\d+:\d\d left)?")


def _pieces(path):
    """What a terminal shows after receiving FILE (\\r returns to the start of the line, \\n
    begins a new one), with trailing blanks removed; and every text that followed a \\r or
    began a line, in order: the progress lines drawn."""
    raw = open(path, "rb").read().decode().replace("\r\n", "\n")
    screen, drawn = [], []
    for line in raw.split("\n"):
        shown = ""
        for seg in line.split("\r"):
            shown = seg + shown[len(seg):]
            if seg.strip():
                drawn.append(seg.rstrip())
        screen.append(shown.rstrip())
    while screen and not screen[-1]:
        screen.pop()
    return screen, drawn


def _fmt(v):
    """A count as the line writes it ("480k", "16.4k", "999")."""
    i = -1
    while v >= 999.5 and i < 3:
        v /= 1000
        i += 1
    return "%.0f" % v if i < 0 else "%.*f%s" % (2 if v < 9.995 else 1 if v < 99.95 else 0, v,
                                                "kMGT"[i])


def _count(s):
    """A count as the line writes it, back to a number."""
    m = re.fullmatch(r"([0-9.]+)([kMGT]?)", s)
    if not m:
        fail("not a count: %r" % s)
    mul = 1000 ** ("kMGT".index(m.group(2)) + 1) if m.group(2) else 1
    return float(m.group(1)) * mul


def _check_pass(seg, n=480002):
    """A pass over the records: which, once its counts are checked against the n records of
    the trace (4 threads of 20000 iterations, 6 records each, and 2 steps: 480002)."""
    m = PASS.fullmatch(seg)
    if not m:
        return None
    done, total, pct = _count(m.group(2)), m.group(3), int(m.group(4))
    if total != _fmt(n) or not 0 < done <= n or abs(pct - 100 * done / n) > 1.5:
        fail("expected a count of the %d records, got %r" % (n, seg))
    _count(m.group(5))
    return m.group(1)


def phases_shown(path):
    """On a terminal: reading (bytes, records), finding steps and merging (records
    read/total, rate)."""
    screen, drawn = _pieces(path)
    seen = set()
    for seg in drawn:
        m = READ.fullmatch(seg)
        if m:
            if not float(m.group(1)) <= float(m.group(2)) or _count(m.group(5)) < 1:
                fail("reading: %r" % seg)
            seen.add("reading")
            continue
        what = _check_pass(seg)
        if what:
            seen.add(what)
        elif not seg.startswith("tprof-analyze: Chrome trace written to "):
            fail("unexpected text on the terminal: %r" % seg)
    if seen != {"reading", "finding steps", "merging"}:
        fail("phases shown: %s, of reading, finding steps, merging; drawn %s" % (seen, drawn))


def line_erased(path, trace):
    """The progress line is erased: the terminal ends with the usual line (naming TRACE)
    alone."""
    screen, drawn = _pieces(path)
    want = ["tprof-analyze: Chrome trace written to " + trace]
    if screen != want:
        fail("the terminal shows %r, expected %r" % (screen, want))


def forced_to_file(path):
    """--progress: the line is drawn (and erased) with stderr to a file."""
    screen, drawn = _pieces(path)
    if screen or "merging" not in [_check_pass(s) for s in drawn]:
        fail("--progress, stderr to a file: shows %r, drew %r" % (screen, drawn))


def killed_counts(path):
    """A killed process: the spool's records count (reading: 240k records; merging: of
    240k)."""
    screen, drawn = _pieces(path)
    shown = [_check_pass(s, 240000) for s in drawn]
    found = [READ.fullmatch(s).group(5) for s in drawn if READ.fullmatch(s)]
    if "merging" not in shown or _fmt(240000) not in found:
        fail("killed process: drew %r" % drawn)


main(globals())
