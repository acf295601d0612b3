# lib.sh — sourced by every end-to-end test: TAP output, a scratch directory removed at exit,
# and the paths of the programs under test.  Each test runs as its own process.
set -u
: "${top_builddir:?run the tests through make check}" "${top_srcdir:?}"
INSPECT="$top_builddir/cli/tprof-inspect"
ANALYZE="$top_builddir/analyze/tprof-analyze"
PRELOAD="$top_builddir/preload/.libs/libtrace_preload.so"
APPS="$top_builddir/tests/apps"
PY="${PYTHON3:-python3}"
# TPROF_TEST_ROUNDTRIP set: every Chrome trace a test writes with tprof-analyze -o is read back
# to every format (func/analyze-roundtrip.sh; `make check TPROF_TEST_ROUNDTRIP=1`).
if [ -n "${TPROF_TEST_ROUNDTRIP:-}" ]; then
	ANALYZE_REAL=$ANALYZE
	ANALYZE="$top_srcdir/tests/func/analyze-roundtrip.sh"
	export ANALYZE_REAL PY
fi
# The analyzer alone, never the round-trip wrapper: for the runs whose signals, descriptor
# limit or peak memory a test sets or measures (the wrapper's readers would share them).
ANALYZE_ONLY=${ANALYZE_REAL:-$ANALYZE}
# TPROF_TEST_KEEP set to a directory: every input the tests give tprof-analyze is kept there
# (func/analyze-keep.sh), for scripts/same-output.sh to read with two analyzers and compare.
if [ -n "${TPROF_TEST_KEEP:-}" ]; then
	mkdir -p "$TPROF_TEST_KEEP"
	ANALYZE_KEEP_NEXT=$ANALYZE
	ANALYZE="$top_srcdir/tests/func/analyze-keep.sh"
	TPROF_TEST_NAME=$(basename "$0" .sh)
	export ANALYZE_KEEP_NEXT TPROF_TEST_KEEP TPROF_TEST_NAME
fi
. "$top_srcdir/tests/func/lib-roundtrip.sh"
# A sanitizer build of the recorder needs the ASan runtime loaded first.
if [ "${SANITIZERS:-no}" = yes ] && [ -n "${ASAN_RUNTIME:-}" ]; then
	PRELOAD_ENV="$ASAN_RUNTIME:$PRELOAD"
	export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0}"
	# Open MPI's hwloc reads the PCI ids file through libpciaccess, which grows its buffer
	# by a realloc per line: glibc grows it in place, ASan's allocator copies it, and each
	# MPI process (mpirun included) spends 10 s and more in MPI_Init.  The tests look at
	# nothing hwloc finds on the PCI bus.
	export HWLOC_COMPONENTS="${HWLOC_COMPONENTS:--pci}"
else
	PRELOAD_ENV="$PRELOAD"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/tprof-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
tap_n=0
tap_failed=0

plan() { echo "1..$1"; }
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $tap_n - $2"; else echo "not ok $tap_n - $2"; tap_failed=$((tap_failed + 1)); fi
}
# check DESCRIPTION COMMAND...: passes when the command succeeds.
check() {
	_d=$1
	shift
	if "$@"; then ok 0 "$_d"; else ok 1 "$_d"; fi
}
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP $1"; }
skip_all() { echo "1..0 # SKIP $1"; exit 0; }
diag() { printf '# %s\n' "$@"; }
# ok_none_missing LIST MESSAGE [WHAT]: one result, ok when LIST (what a check looked for and
# did not find) is empty, and then a diagnostic "WHAT: LIST" (WHAT: missing).
ok_none_missing() {
	[ -z "$1" ]
	ok $? "$2"
	[ -z "$1" ] || diag "${3:-missing}:$1"
}
finish() { [ "$tap_failed" -eq 0 ]; }

# mount_ns: NS, the command that runs a command in a mount namespace of its own, where it may
# mount a small tmpfs (as root `unshare -m`, else in a user namespace too, `unshare -rm`);
# non-zero, NS saying which was tried, when none can be made here.
mount_ns() {
	if [ "$(id -u)" = 0 ]; then NS="unshare -m"; else NS="unshare -rm"; fi
	command -v unshare >/dev/null 2>&1 && $NS true 2>/dev/null
}

# need_torch: SYS_PY, Debian's own python3 with python3-torch; else the whole test is
# skipped, saying why.
need_torch() {
	SYS_PY=${SYSTEM_PYTHON3:-/usr/bin/python3}
	[ -x "$SYS_PY" ] || skip_all "no $SYS_PY (Debian's own python3)"
	"$SYS_PY" -c 'import torch' 2>/dev/null ||
		skip_all "$SYS_PY cannot import torch (on Debian: apt-get install python3-torch)"
}

# tsan WHAT BIN ARGS...: runs a ThreadSanitizer build (stdout in $T/stdout, stderr in
# $T/stderr): two results, that it ran to the end (WHAT says what) and that TSan said nothing.
tsan() {
	_w=$1
	shift
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" "$@" >"$T/stdout" 2>"$T/stderr"
	_rc=$?
	ok $_rc "$_w (status $_rc)"
	grep '^not ok' "$T/stdout" | sed 's/^/# /'
	if grep -q "ThreadSanitizer" "$T/stderr"; then
		ok 1 "no ThreadSanitizer report"
		sed 's/^/# /' "$T/stderr" | head -60
	else
		ok 0 "no ThreadSanitizer report"
	fi
}

# py SCRIPT ARGS...: runs a Python check; it exits non-zero (saying why) on failure.
py() { _s=$1; shift; "$PY" -c "$_s" "$@"; }

# Runs a command with the recorder through the environment alone (no tprof-inspect).
record_env() { _dir=$1; shift; TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$_dir" LD_PRELOAD="$PRELOAD_ENV" "$@"; }

# wait_file FILE [SECONDS]: waits (default 20 s) until FILE exists; fails if it never does.
wait_file() {
	_i=0
	while [ ! -e "$1" ]; do
		[ "$_i" -ge "$((${2:-20} * 10))" ] && return 1
		sleep 0.1
		_i=$((_i + 1))
	done
}

# Count the recorder's own lines ("tprof[PID]: ...") in a file of captured stderr.
recorder_lines() { grep -c '^tprof\[[0-9][0-9]*\]: ' "$1"; }

# Python helpers for Chrome traces, put in front of the script by pyc:
#   load(path)   the parsed trace (json module; gzip when the name ends in .gz)
#   events(d)    every event that is not metadata
#   procs(d)     {chrome pid: (label, real pid)} from the process_name metadata
#   tracknames(d) {(chrome pid, tid): name} from the thread_name metadata
#   numbered(ev, prefix) {N: the X event named PREFIX followed by N} ("step ", "ProfilerStep#")
#   ns(x)        a Chrome microsecond value as integer nanoseconds
#   overlaps(d)  two device spans on one track (a GPU stream, a NeuronCore lane) that overlap
#   backward(d)  flow arrows that end before they start, or lack an end
PY_CHROME='
import collections, gzip, json, re, sys
def load(path):
    if path.endswith(".gz"):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    with open(path, encoding="utf-8") as f:
        return json.load(f)
def events(d):
    return [e for e in d["traceEvents"] if e["ph"] != "M"]
def procs(d):
    out = {}
    for e in d["traceEvents"]:
        if e["ph"] == "M" and e["name"] == "process_name":
            m = re.search(r"pid (-?\d+)\)", e["args"]["name"])
            out[e["pid"]] = (e["args"]["name"], int(m.group(1)) if m else None)
    return out
def tracknames(d):
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in d["traceEvents"]
            if e["ph"] == "M" and e["name"] == "thread_name"}
def numbered(ev, prefix):
    return {int(e["name"][len(prefix):]): e for e in ev
            if e["ph"] == "X" and e["name"].startswith(prefix) and e["name"][len(prefix):].isdigit()}
def ns(x):
    return int(round(x * 1000))
DEVICE_CATS = ("kernel", "copy", "memset", "graph", "collective", "device", "neuroncore")
def overlaps(d):
    per = collections.defaultdict(list)
    for e in events(d):
        if e["ph"] == "X" and e.get("cat") in DEVICE_CATS:
            per[(e["pid"], e["tid"])].append((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["name"]))
    bad = []
    for k, v in per.items():
        v.sort()
        bad += ["track %s: %s at [%d, %d] overlaps %s at [%d, %d]" % (k, b[2], b[0], b[1], a[2], a[0], a[1])
                for a, b in zip(v, v[1:]) if b[0] < a[1]]
    return bad
def backward(d):
    ends = {}
    for e in events(d):
        if e["ph"] == "f":
            ends[(e["cat"], e["name"], e["id"])] = e
    bad = []
    for e in events(d):
        if e["ph"] == "s":
            f = ends.get((e["cat"], e["name"], e["id"]))
            if f is None or ns(f["ts"]) < ns(e["ts"]):
                bad.append("%s arrow %s: from %s to %s" % (e["name"], e["id"], e["ts"], f and f["ts"]))
    return bad
'
# pyc SCRIPT ARGS...: like py, with the helpers above defined.
pyc() { _s=$1; shift; "$PY" -c "$PY_CHROME$_s" "$@"; }

# HIP programs run against the stand-in runtime (tests/stand-ins), never a real GPU.
# need_hip [APP...]: skips the whole test, saying why, when the stand-in or an app is missing.
need_hip() {
	[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ] ||
		skip_all "no stand-in HIP runtime (configure found no usable HIP headers)"
	for _a in "$@"; do
		[ -x "$APPS/$_a" ] || skip_all "$_a was not built (configure found no hipcc)"
	done
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
}

# MPI programs run under Debian's Open MPI, with mpirun (as root it needs both flags).
# need_mpi [FILE...]: skips the whole test, saying why, when mpicc or mpirun is missing or a
# file it needs (relative to tests/ in the build tree: apps/mpi-pattern...) was not built.
DUMP="$top_builddir/tests/tools/dump-records"
MPIRUN_FLAGS="--allow-run-as-root --oversubscribe"
need_mpi() {
	{ [ -n "${MPICC:-}" ] && [ "$MPICC" != no ] && [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ]; } ||
		skip_all "no mpicc or mpirun (configure found none; on Debian: apt-get install libopenmpi-dev openmpi-bin)"
	for _a in "$@"; do
		[ -x "$top_builddir/tests/$_a" ] || skip_all "$_a was not built (configure found no mpicc)"
	done
	[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
	# Ranks waiting in MPI yield the CPU instead of spinning: more ranks than cores here.
	OMPI_MCA_mpi_yield_when_idle=1
	export OMPI_MCA_mpi_yield_when_idle
}
