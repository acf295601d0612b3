"""inspect-report.py — the check of func/t-inspect-report.sh on tprof-analyze --summary=json
of the profile of apps/exits killed by a signal."""
import json

from checklib import fail, main


def events_read(summary):
    """tprof-analyze reads the 400 events the program made (before it was killed)."""
    n = json.load(open(summary))["header"]["events"]
    if n < 400:
        fail("%d events" % n)


main(globals())
