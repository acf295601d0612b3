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
	# Whatever the environment says (the last of an option wins): no leak check at each
	# process's exit, which stops and scans every thread of an MPI process for minutes (the
	# tests that look for leaks ask for it themselves), and no abort on a finding.
	export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:abort_on_error=0"
	# Open MPI's hwloc reads the PCI ids file through libpciaccess, which grows its buffer
	# by a realloc per line: glibc grows it in place, ASan's allocator copies it, and each
	# MPI process (mpirun included) spends 10 s and more in MPI_Init.  The tests look at
	# nothing hwloc finds on the PCI bus.
	export HWLOC_COMPONENTS=-pci
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
# skips N WHY: N results skipped, saying why.
skips() { _k=0; while [ $_k -lt "$1" ]; do skip "$2"; _k=$((_k + 1)); done; }
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

# Checks in Python: those of tests/func/t-NAME.sh are the functions of
# tests/tools/checks/NAME.py, run by name (tools/checks/checklib.py), where the readers of
# tests/tools (chrome_trace.py...) are importable.  (-B: nothing is written into the source
# tree.)
CHECKS_DIR="$top_srcdir/tests/tools/checks"
_stem=$(basename "$0" .sh)
CHECKS="$CHECKS_DIR/${_stem#t-}.py"
# pycheck DESCRIPTION CHECK ARGS...: one result, from the function CHECK of $CHECKS.
pycheck() { _d=$1; shift; check "$_d" "$PY" -B "$CHECKS" "$@"; }
# pycheck_in NAME DESCRIPTION CHECK ARGS...: the same from tests/tools/checks/NAME.py (the
# checks of a shared func/lib-NAME.sh, or of a test whose name another test has).
pycheck_in() { _f=$1; _d=$2; shift 2; check "$_d" "$PY" -B "$CHECKS_DIR/$_f.py" "$@"; }

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
# need_mpifc: a working mpif90 (configure) and apps/mpi-pattern.F90 built under each binding.
need_mpifc() {
	{ [ -n "${MPIFC:-}" ] && [ "$MPIFC" != no ]; } ||
		skip_all "no working mpif90 (configure found none; on Debian: apt-get install gfortran libopenmpi-dev)"
	for _b in mpifh usempi f08; do
		[ -x "$APPS/mpi-pattern-$_b" ] || skip_all "apps/mpi-pattern-$_b was not built"
	done
}

# each_mpi_build FN APP C F: calls `FN NAME RUN PROGRAM LANG` for apps/mpi-APP built with Open
# MPI and apps/mpich-APP built with MPICH (NAME openmpi, mpich), each launched by its mpirun,
# then for their Fortran builds with use mpi and use mpi_f08 (-usempi, -f08; LANG fortran,
# NAME openmpi-usempi...).  A build that is missing counts as its results skipped (C for a C
# program, F for a Fortran one), saying why.
each_mpi_build() {
	# (names of their own: FN sets variables too, as every function here does)
	_eb_fn=$1 _eb_app=$2 _eb_nc=$3 _eb_nf=$4
	for _eb_lib in openmpi mpich; do
		if [ $_eb_lib = openmpi ]; then
			_eb_pre=mpi _eb_run="$MPIRUN $MPIRUN_FLAGS" _eb_fc=mpif90
		else
			_eb_pre=mpich _eb_run=${MPIRUN_MPICH:-no} _eb_fc=mpif90.mpich
		fi
		if [ "$_eb_run" = no ] || [ ! -x "$APPS/$_eb_pre-$_eb_app" ]; then
			skips $((_eb_nc + 2 * _eb_nf)) "no $_eb_lib build of apps/mpi-$_eb_app"
			continue
		fi
		$_eb_fn $_eb_lib "$_eb_run" "$APPS/$_eb_pre-$_eb_app" c
		for _eb_b in usempi f08; do
			if [ -x "$APPS/$_eb_pre-$_eb_app-$_eb_b" ]; then
				$_eb_fn $_eb_lib-$_eb_b "$_eb_run" "$APPS/$_eb_pre-$_eb_app-$_eb_b" fortran
			else
				skips "$_eb_nf" "no $_eb_fc: apps/mpi-$_eb_app.F90 was not built ($_eb_b)"
			fi
		done
	done
}

# need_mpich PROGRAM...: MPICH's compiler and launcher (configure), and the programs built
# with them; skips the test, saying why, otherwise.
need_mpich() {
	{ [ -n "${MPICC_MPICH:-}" ] && [ "$MPICC_MPICH" != no ] && [ -n "${MPIRUN_MPICH:-}" ] &&
		[ "$MPIRUN_MPICH" != no ]; } ||
		skip_all "no mpicc.mpich or mpirun.mpich (configure found none; on Debian: apt-get install mpich libmpich-dev)"
	for _a in "$@"; do
		[ -x "$top_builddir/tests/$_a" ] || skip_all "$_a was not built (configure found no MPICH)"
	done
	[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
}

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
