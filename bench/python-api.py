# python-api.py off|on [RUNS [CALLS]] — what a call of the tprof Python module costs, in ns per
# call above a plain Python loop: `with tprof.range(name)`, a decorated function's call (above
# the same function undecorated), tprof.mark, tprof.step and tprof.counter.  Run by `make -C
# bench bench-python` twice: "off" without the recorder (the calls are pure-Python no-ops; the
# target is under 1 us) and "on" under it (each call is recorded).  Each figure is the median
# of RUNS rounds (default 7) of CALLS calls (default 200000), with min and max; the baseline
# loop runs in each round right before the measured one.
import sys
import time

import tprof

NAME = "forward"


def plain(x):
    return x


@tprof.range("decorated")
def decorated(x):
    return x


def loop_empty(n):
    for i in range(n):
        pass


def loop_range(n):
    rng = tprof.range
    for i in range(n):
        with rng(NAME):
            pass


def loop_plain_call(n):
    for i in range(n):
        plain(i)


def loop_decorated_call(n):
    for i in range(n):
        decorated(i)


def loop_mark(n):
    mark = tprof.mark
    for i in range(n):
        mark(NAME)


def loop_step(n):
    step = tprof.step
    for i in range(n):
        step(i)


def loop_counter(n):
    counter = tprof.counter
    for i in range(n):
        counter(NAME, 1.5)


CASES = [("with tprof.range(name): pass", loop_range, loop_empty),
         ("decorated function call", loop_decorated_call, loop_plain_call),
         ("tprof.mark(name)", loop_mark, loop_empty),
         ("tprof.step(n)", loop_step, loop_empty),
         ("tprof.counter(name, value)", loop_counter, loop_empty)]


def timed(fn, n):
    t = time.perf_counter_ns()
    fn(n)
    return time.perf_counter_ns() - t


def main():
    mode = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 200000
    if tprof.enabled() != (mode == "on"):
        sys.exit("python-api.py %s: tprof.enabled() is %s" % (mode, tprof.enabled()))
    base = sorted(timed(loop_empty, calls) / calls for _ in range(runs))
    print("tprof Python API, %s (%s): ns per call above the baseline, median [min, max] of %d "
          "rounds of %d calls" % ("recorded" if mode == "on" else "not recorded",
                                   sys.executable, runs, calls))
    print("  %-32s %8.1f ns per iteration (median)" % ("baseline: empty loop", base[runs // 2]))
    worst = 0.0
    for label, fn, baseline in CASES:
        fn(calls // 10)
        per = []
        for _ in range(runs):
            b = timed(baseline, calls)
            per.append((timed(fn, calls) - b) / calls)
        per.sort()
        worst = max(worst, per[runs // 2])
        print("  %-32s %8.1f ns  [%.1f, %.1f]" % (label, per[runs // 2], per[0], per[-1]))
    if mode == "off":
        print("  target: under 1000 ns per call without the recorder: %s (largest median %.1f ns)"
              % ("met" if worst < 1000 else "MISSED", worst))


main()
