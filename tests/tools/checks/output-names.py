"""output-names.py — the checks of func/t-output-names.sh: that the outputs tprof-analyze wrote
under the names a newcomer types read back as Chrome JSON (plain or gzip-compressed)."""
import gzip
import json

from checklib import main


def chrome_gzip(path):
    """The gzip-compressed file at PATH is Chrome JSON, with its traceEvents."""
    json.load(gzip.open(path))["traceEvents"]


def chrome_plain(path):
    """The file at PATH is Chrome JSON, with its traceEvents."""
    json.load(open(path))["traceEvents"]


def json_gzip(path):
    """The gzip-compressed file at PATH is JSON."""
    json.load(gzip.open(path))


def json_files(*paths):
    """Every file of PATHS is JSON."""
    for path in paths:
        json.load(open(path))


main(globals())
