"""own-fds.py — for func/t-own-fds.sh: the count of a profile's marks from its Chrome trace,
and the check of the recorder's descriptors as the test listed them (one per line: the
number, then the flags of /proc/PID/fdinfo in octal)."""
from checklib import fail, main
from chrome_trace import events, load


def fds_marks(path):
    """Prints the number of "fds" marks in the Chrome trace, and a space (no newline)."""
    d = load(path)
    print(sum(1 for e in events(d) if e["ph"] == "i" and e["name"] == "fds"), end=" ")


def recorder_fds(path):
    """The recorder's two descriptors are close-on-exec and above the program's."""
    rows = [ln.split() for ln in open(path) if ln.strip()]
    if len(rows) != 2:
        fail("%d descriptors of the recorder seen, not 2 (chunk file, spool)" % len(rows))
    bad = [r for r in rows if int(r[0]) < 3 or not int(r[1], 8) & 0o2000000]
    if bad:
        fail("below 3 or without O_CLOEXEC: %s" % bad)
    if min(int(r[0]) for r in rows) < 64:
        fail("among the small numbers that are the program's: %s" % rows)


main(globals())
