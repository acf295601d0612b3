#!/bin/sh
# The stand-in libamdhip64 under ThreadSanitizer: test-hip-tsan is test-hip.c and the
# stand-in's sources compiled into one binary with -fsanitize=thread.  No data race or lock
# inversion may be reported, and every check of test-hip must still pass.
. "$top_srcdir/tests/func/lib.sh"
[ "${STANDIN_HIP_HEADERS:-no}" = yes ] || skip_all "HIP headers not found (Debian: libamdhip64-dev)"
bin="$top_builddir/tests/stand-ins/tests/test-hip-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
plan 3
unset STANDIN_HIP_CLOCK_OFFSET_NS
# die_after_fork=0: test-hip's fork test starts threads in the child.
STANDIN_HIP_DEVICES=2 STANDIN_HIP_KERNEL_US="k20_ms:20000,k5:5000,default:100" \
	STANDIN_HIP_COPY_GBPS=1 STANDIN_HIP_GRAPH_US=3000 \
	STANDIN_HIP_TRACE=2 STANDIN_HIP_TRACE_FILE="$T/trace" \
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1 die_after_fork=0" \
	"$bin" "$T/trace" >"$T/stdout" 2>"$T/stderr"
rc=$?
ok $rc "test-hip runs to the end under ThreadSanitizer (status $rc)"
if grep -q "ThreadSanitizer" "$T/stderr"; then
	ok 1 "no ThreadSanitizer report"
	sed 's/^/# /' "$T/stderr" | head -60
else
	ok 0 "no ThreadSanitizer report"
fi
if grep -q '^1\.\.[1-9]' "$T/stdout" && ! grep -q '^not ok' "$T/stdout"; then
	ok 0 "all $(grep -c '^ok' "$T/stdout") checks of test-hip pass"
else
	ok 1 "all checks of test-hip pass"
	grep '^not ok' "$T/stdout" | sed 's/^/# /'
fi
finish
