# lib-nrt.sh — sourced (after lib.sh) by the tests of the NRT recorder: the stand-in Neuron
# runtime on the library path, NEFF files, and Python helpers that read what the recorder
# wrote (tools/dump-records) and what the stand-in says it did (its trace file).

# need_nrt: skips the whole test, saying why, when the stand-in or the programs are missing.
need_nrt() {
	[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnrt.so.1" ] ||
		skip_all "no stand-in libnrt.so.1 (tests/stand-ins was not built)"
	for _a in nrt-threads mkneff; do
		[ -x "$APPS/$_a" ] || skip_all "apps/$_a was not built"
	done
	[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
	unset NEURON_RT_VISIBLE_CORES STANDIN_NRT_EXEC_US STANDIN_NRT_INSTANCE STANDIN_NRT_TRACE_FILE
	unset TPROF_NRT_API_FILTER TPROF_NRT_API_FILTER_OUT
}

# neff FILE NAME [key=value...]: writes a NEFF for the stand-in (apps/mkneff).
neff() { "$APPS/mkneff" "$@"; }

# Python helpers, put in front of the script by nrtpy:
#   images(dump)  {image index: {pid, calls (NRT CALL records in order), props (the last of
#                  each key), args (the command line), clocks, streams (tid -> stream)}} from a
#                  dump-records file
#   ns(img, t)    a tick value of that image as CLOCK_MONOTONIC nanoseconds (piecewise-linear
#                 between its CLOCK samples, as the analyzer does)
#   status(r)     the return code of a CALL; op(r) its NRT op; nrt(r) its NRT fields
#   trace(path)   the stand-in's trace lines (load, unload, exec), parsed
PY_NRT='
import collections, glob, json, sys
OTHER, INIT, CLOSE, LOAD, UNLOAD, EXECUTE, ALLOC, FREE, READ, WRITE, COPY, MEMSET, SET, COLL = range(14)
def images(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        p = out.setdefault(r["image"], {"pid": r["pid"], "calls": [], "props": {}, "clocks": [],
                                        "streams": {}, "strings": set(), "args": []})
        k = r["kind"]
        if k == "call" and r["flags"] == 4:
            p["calls"].append(r)
        elif k == "prop":
            p["props"][r["name"]] = r["value"]
            if r["name"] == "arg":
                p["args"].append(r["value"])
        elif k == "clock":
            p["clocks"].append((r["t0"], r["t1"]))
        elif k == "thread":
            p["streams"][r["t1"]] = r["arg"]
        elif k == "string":
            p["strings"].add(r["string"])
    return out
def ns(img, t):
    if img["props"].get("clock") == 2:
        return t
    c = sorted(set(img["clocks"]))
    if len(c) < 2:
        sys.exit("fewer than two clock samples")
    for i in range(len(c) - 1):
        if t < c[i + 1][0] or i == len(c) - 2:
            (a, x), (b, y) = c[i], c[i + 1]
            return x + (t - a) * (y - x) / (b - a)
def status(r):
    return r["arg"] >> 48
def op(r):
    return r["nrt"]["op"]
def nrt(r):
    return r["nrt"]
def trace(pattern):
    out = []
    for f in sorted(glob.glob(pattern)):
        out += [json.loads(l) for l in open(f)]
    return out
def fail(msg):
    sys.exit(msg)
'
# nrtpy SCRIPT ARGS...: runs a check with the helpers above.
nrtpy() { _s=$1; shift; "$PY" -c "$PY_NRT$_s" "$@"; }
