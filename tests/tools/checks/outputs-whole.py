"""outputs-whole.py — the readers of func/t-outputs-whole.sh for the outputs it checks: each
fails when what it reads is not a whole output (its digest then fails)."""
import gzip
import json
import os

from checklib import main


def read_chrome(path):
    """Reads the Chrome trace at path (gzipped when its name ends in .gz) as JSON."""
    json.load(gzip.open(path, "rt") if path.endswith(".gz") else open(path))


def read_split(directory):
    """Reads the split trace t in directory: its index, then every part it names."""
    d = json.load(open(directory + "/t.index.json"))
    for p in d["parts"]:
        json.load(gzip.open(os.path.join(directory, p["file"]), "rt"))


main(globals())
