#!/bin/sh
# Device timing under ThreadSanitizer with several operations begun at once per thread (as an
# NCCL group begins one per stream and ends them all at its ncclGroupEnd): no data race
# reported, and every operation not given up — and none other — is one DEVICE record.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-devtime-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
plan 4

out="$T/out"
tsan "runs to the end under ThreadSanitizer" "$bin" "$out"
"$DUMP" "$out" >"$T/dump.json" 2>"$T/dump.err"
ok $? "dump-records reads the profile"
pycheck "one DEVICE record per operation ended, none for those given up, none lost" \
	one-record-per-op "$T/dump.json" "$T/stdout"
finish
