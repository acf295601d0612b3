# lib-nrt.sh — sourced (after lib.sh) by the tests of the NRT recorder: the stand-in Neuron
# runtime on the library path, and NEFF files.  The Python helpers that read what the
# recorder wrote (tools/dump-records) and what the stand-in says it did (its trace file) are
# those of tests/tools/checks/lib-nrt.py, which a test's checker imports.

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
