"""import-hostile.py — for func/t-import-hostile.sh: runs the analyzer on a hostile trace
under an address-space limit and prints its peak RSS."""
import resource
import subprocess

from checklib import fail, main

LIMIT = 1 << 30


def peak_rss(sanitizers, *command):
    """Runs COMMAND (the analyzer and its arguments) under an address-space limit of 1 GiB
    (none when SANITIZERS is "yes": ASan's shadow memory is not bounded), stopped after 10
    minutes; prints its peak RSS in KiB, or fails saying why."""
    def cap():
        if sanitizers != "yes":
            resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))
    try:
        p = subprocess.run(command, preexec_fn=cap, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=600)
    except subprocess.TimeoutExpired:
        fail("still running after 10 minutes")
    if p.returncode:
        fail("exit status %d: %s" % (p.returncode, p.stderr.decode(errors="replace")[-300:]))
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


main(globals())
