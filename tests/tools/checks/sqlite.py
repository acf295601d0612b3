"""sqlite.py — the check of func/t-sqlite.sh written inline there; the others are the CHECKs
of tools/lib-sqlite.py.  Given the truth apps/mpi-pattern printed (JSON) and the database
tprof-analyze --format sqlite wrote of its run."""
import json
import subprocess

from checklib import fail, main


def mpi_message_count(truth, db):
    """As many rows in mpi_messages (counted by the sqlite3 shell) as the program sent."""
    want = json.load(open(truth))["messages"]
    got = int(subprocess.run(["sqlite3", db, "SELECT COUNT(*) FROM mpi_messages"],
                             capture_output=True, text=True).stdout)
    if got != want:
        fail("%d messages, the program sent %d" % (got, want))


main(globals())
