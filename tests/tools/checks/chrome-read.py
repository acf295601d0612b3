"""chrome-read.py — for func/t-chrome-read.sh (whose checks are tools/chrome-check.py's):
cut-inside-event writes a Chrome trace cut inside one of its events."""
import re

from checklib import main


def cut_inside_event(src, dst):
    """Writes to DST the Chrome trace SRC (an event a line, each starting {"ph") cut 10 bytes
    into its middle event; prints how many events come before it and its offset."""
    text = open(src, "rb").read()
    starts = [m.start() for m in re.finditer(rb"^\{\"ph\"", text, re.M)]
    i = len(starts) // 2
    open(dst, "wb").write(text[:starts[i] + 10])
    print(i, starts[i])


main(globals())
