"""private.py — for func/t-private.sh: tprof.torch's trace writer (python/tprof/_chrome.py,
found through PYTHONPATH), without torch, rewrites a Chrome trace (SRC) to a new file (DST)
and to a name where a symbolic link was planted (LINK)."""
import os

from checklib import main
from tprof import _chrome


def rewrite_modes(src, dst, link):
    """Prints the mode of the rewritten DST, then that of LINK rewritten ("link" when it is
    still a symbolic link: written through)."""
    _chrome.rewrite(src, dst, {"pid": 1}, lambda e: e)
    print("%o" % (os.stat(dst).st_mode & 0o777))
    _chrome.rewrite(src, link, {"pid": 1}, lambda e: e)
    print("link" if os.path.islink(link) else "%o" % (os.stat(link).st_mode & 0o777))


main(globals())
