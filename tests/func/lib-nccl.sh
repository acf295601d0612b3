# lib-nccl.sh — sourced by the NCCL recorder tests after lib.sh: need_nccl (the stand-in
# NCCL/RCCL and the programs a test runs).

# need_nccl [FILE...]: skips the whole test, saying why, when the stand-in NCCL or a file it
# needs (relative to tests/ in the build tree: apps/nccl-extras...) is missing.
need_nccl() {
	[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnccl.so.2" ] &&
		[ -e "$STANDIN_LIBDIR/librccl.so.1" ] ||
		skip_all "no stand-in NCCL/RCCL (configure found no usable HIP headers)"
	for _a in "$@"; do
		[ -x "$top_builddir/tests/$_a" ] || skip_all "$_a was not built"
	done
	[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
}

# The Python readers of a profile's NCCL records (through tools/dump-records) beside the
# stand-in's own trace of what it ran (STANDIN_NCCL_TRACE_FILE: one line per operation, with
# its start and end on the host's CLOCK_MONOTONIC, the clock of the DEVICE records) are in
# tests/tools/checks/lib-nccl.py: a test's checker imports them.
