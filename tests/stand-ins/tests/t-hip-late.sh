#!/bin/sh
# test-hip's device times do not depend on how fast the host queues its work: with every
# hipLaunchKernel 8 ms late (late-launch.c, as if the calling thread were descheduled between
# its calls on a loaded machine), every check of test-hip still passes.  Its timed checks
# queue their work on a stream held behind a host callback, and measure device time from
# the moment it is let go.
. "$top_srcdir/tests/func/lib.sh"
[ "${STANDIN_HIP_HEADERS:-no}" = yes ] || skip_all "HIP headers not found (Debian: libamdhip64-dev)"
late="$top_builddir/tests/stand-ins/tests/.libs/liblatelaunch.so"
[ -e "$late" ] || { echo "1..1"; echo "not ok 1 - $late was not built"; exit 1; }
pre=$late
[ "${SANITIZERS:-no}" = yes ] && [ -n "${ASAN_RUNTIME:-}" ] && pre="$ASAN_RUNTIME:$late"
plan 1
unset STANDIN_HIP_CLOCK_OFFSET_NS
LD_PRELOAD="$pre" STANDIN_HIP_DEVICES=2 STANDIN_HIP_KERNEL_US="k20_ms:20000,k5:5000,default:100" \
	STANDIN_HIP_COPY_GBPS=1 STANDIN_HIP_GRAPH_US=3000 \
	STANDIN_HIP_TRACE=2 STANDIN_HIP_TRACE_FILE="$T/trace" \
	"$top_builddir/tests/stand-ins/tests/test-hip" "$T/trace" >"$T/stdout" 2>"$T/stderr"
rc=$?
n=$(grep -c '^ok' "$T/stdout")
grep -q '^1\.\.[1-9]' "$T/stdout" && ! grep -q '^not ok' "$T/stdout" && [ "$rc" -eq 0 ]
ok $? "all $n checks of test-hip pass with every launch 8 ms late (status $rc)"
grep '^not ok' "$T/stdout" | sed 's/^/# /'
[ -s "$T/stderr" ] && diag "$(tail -c 300 "$T/stderr")"
finish
