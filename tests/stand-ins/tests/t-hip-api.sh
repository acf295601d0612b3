#!/bin/sh
# The stand-in libamdhip64.so.5 through the HIP C API: runs test-hip (which prints its own
# TAP) with the configuration it expects and the device-level trace in a file it reads back
# to check the device clocks.
. "$top_srcdir/tests/func/lib.sh"
[ "${STANDIN_HIP_HEADERS:-no}" = yes ] || skip_all "HIP headers not found (Debian: libamdhip64-dev)"
# lib.sh turns leak checking off for the recorder; the stand-in itself must not leak.
[ "${SANITIZERS:-no}" = yes ] && export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
unset STANDIN_HIP_CLOCK_OFFSET_NS  # test-hip checks the default offsets
STANDIN_HIP_DEVICES=2 STANDIN_HIP_KERNEL_US="k20_ms:20000,k5:5000,default:100" \
	STANDIN_HIP_COPY_GBPS=1 STANDIN_HIP_GRAPH_US=3000 \
	STANDIN_HIP_TRACE=2 STANDIN_HIP_TRACE_FILE="$T/trace" \
	"$top_builddir/tests/stand-ins/tests/test-hip" "$T/trace"
rc=$?
[ "$rc" -eq 0 ] || diag "test-hip exited with status $rc; the last trace lines:" \
	"$(tail -n 20 "$T/trace" 2>/dev/null)"
exit "$rc"
