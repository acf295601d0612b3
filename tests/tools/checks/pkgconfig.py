"""pkgconfig.py — for func/t-pkgconfig.sh (tprof installed under a prefix): the check of the
Chrome trace the installed tprof-analyze wrote of a program built against the installed
library, and installed-module, a Python program run under the installed tprof-inspect."""
import collections
import os

from checklib import fail, main
from chrome_trace import events, load


def installed_events(trace):
    """The installed tprof-analyze reads the profile: one range 'installed', one mark
    'hello'."""
    d = load(trace)
    c = collections.Counter((e["ph"], e["name"]) for e in events(d))
    if c != {("X", "installed"): 1, ("i", "hello"): 1}:
        fail("events: %s" % dict(c))


def installed_module():
    """A program, not a check: imports tprof (from the PYTHONPATH the installed tprof-inspect
    gives), marks once, and prints tprof.enabled(), where tprof came from and PYTHONPATH."""
    import tprof
    tprof.mark("installed python")
    print(tprof.enabled(), os.path.realpath(tprof.__file__), os.environ["PYTHONPATH"])


main(globals())
