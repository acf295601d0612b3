"""hip-streams.py — the checks of func/t-hip-streams.sh on the Chrome trace that tprof-analyze
wrote of apps/hip-streams, given the program's ROUNDS and N (launches per round)."""
from checklib import fail, main
from chrome_trace import events, load


def launch_devices(trace, rounds, n):
    """Every launch is recorded on its stream's device (round r's on device r % 2)."""
    d = load(trace)
    rounds, n = int(rounds), int(n)
    calls = sorted((e for e in events(d) if e["name"] == "hipLaunchKernel"), key=lambda e: e["ts"])
    if len(calls) != rounds * n:
        fail("%d launches" % len(calls))
    got = [c["args"]["device"] for c in calls]
    want = [r % 2 for r in range(rounds) for _ in range(n)]
    if got != want:
        fail("devices %s, want %s" % (got, want))


main(globals())
