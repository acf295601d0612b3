"""checklib.py — runs one check of a test's checker file by name:

    python3 -B tests/tools/checks/NAME.py CHECK ARGS...

calls the function CHECK of NAME.py (dashes read as underscores) with ARGS, as strings.  A
check passes by returning and fails by calling fail(why), which prints why and exits 1.  Each
end-to-end test tests/func/t-NAME.sh keeps its checks in NAME.py and runs them with `pycheck`
(func/lib.sh).  The readers of tests/tools (chrome_trace.py and the others) are importable.
"""
import os
import sys
import types

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(why):
    """Ends the check as failed, saying why."""
    sys.exit(why)


def main(scope):
    """Runs the check named on the command line among the functions of scope (globals())."""
    checks = {k: v for k, v in scope.items() if isinstance(v, types.FunctionType) and
              v.__module__ == "__main__" and not k.startswith("_")}
    name = sys.argv[1].replace("-", "_") if len(sys.argv) > 1 else ""
    if name not in checks:
        sys.exit("usage: %s CHECK ARGS...  (CHECK: %s)" % (sys.argv[0], ", ".join(sorted(checks))))
    checks[name](*sys.argv[2:])
