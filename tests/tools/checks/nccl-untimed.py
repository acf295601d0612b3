"""nccl-untimed.py — the checks of func/t-nccl-untimed.sh on what the recorder wrote of
apps/nccl-untimed (tools/dump-records output, a JSON object a line), read with the helpers of
lib-nccl.py."""
import importlib
import json

from checklib import fail, main

nccl = importlib.import_module("lib-nccl")
procs, F_UNTIMED = nccl.procs, nccl.F_UNTIMED


def untimed_calls(dump):
    """Calls recorded and numbered, the all-reduces flagged untimed, no device span, no
    events."""
    p = list(procs(dump).values())[0]
    ar = [r["nccl"] for r in p.calls if r["name"] == "ncclAllReduce"]
    if [a["seq"] for a in ar] != [1, 2, 3, 4, 5] or any(not a["flags"] & F_UNTIMED for a in ar):
        fail("%s" % ar)
    if any(r["nccl"]["flags"] & F_UNTIMED for r in p.calls if r["name"] != "ncclAllReduce"):
        fail("flags")
    if p.devs or p.props.get("nccl_events") != "none" or \
            not p.props.get("nccl_library", "").endswith("libncclhost.so"):
        fail("%s %s" % (p.devs, p.props))


def one_drop(dump):
    """One DROP record counts the four operations left untimed."""
    recs = [json.loads(line) for line in open(dump)]
    d = [(r["flags"], r["t1"]) for r in recs if r["kind"] == "drop"]
    if d != [(4, 4)]:
        fail("drops %s" % d)


if __name__ == "__main__":
    main(globals())
