#!/bin/sh
# The stand-in NCCL under ThreadSanitizer: test-nccl-tsan is test-nccl.c, the NCCL stand-in's
# and the HIP stand-in's sources compiled into one binary with -fsanitize=thread; its ranks
# are threads of the one process (each on its own device), so every exchange through the
# shared segment, the stream workers, groups and initialisation threads are seen by TSan.
# No data race or lock inversion may be reported, and every check must pass.
. "$top_srcdir/tests/func/lib.sh"
[ "${STANDIN_HIP_HEADERS:-no}" = yes ] || skip_all "HIP headers not found (Debian: libamdhip64-dev)"
bin="$top_builddir/tests/stand-ins/tests/test-nccl-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
unset STANDIN_NCCL_TRACE_FILE STANDIN_NCCL_GBPS STANDIN_NCCL_LATENCY_US STANDIN_NCCL_CHUNK_BYTES
export STANDIN_HIP_DEVICES=4 STANDIN_NCCL_TIMEOUT_S=120
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1"
set -- matrix group async errors split nonblocking initall
plan $(($# * 2))
for sc in "$@"; do
	STANDIN_NCCL_CHUNK_BYTES=4096 STANDIN_NCCL_TRACE_FILE="$T/trace" \
		"$bin" threads 3 "$sc" >"$T/out" 2>"$T/err"
	rc=$?
	ok $rc "$sc: 3 ranks as threads under ThreadSanitizer (status $rc): $(cat "$T/out")"
	if grep -q "ThreadSanitizer" "$T/err"; then
		ok 1 "$sc: no ThreadSanitizer report"
		grep -v "^rank .*FAIL\|^standin-nccl" "$T/err" | sed 's/^/# /' | head -60
	else
		ok 0 "$sc: no ThreadSanitizer report"
	fi
	[ $rc -eq 0 ] || sed 's/^/# /' "$T/err" | head -20
done
finish
