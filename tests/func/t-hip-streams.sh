#!/bin/sh
# A stream destroyed and made again on another device often gets the same handle back: each
# launch is recorded with the device of the stream it went to, never the device a handle had
# before (the recorder keeps each stream's device, and forgets them when a stream goes).
. "$(dirname "$0")/lib.sh"
[ -x "$APPS/hip-streams" ] || skip_all "apps/hip-streams was not built"
plan 4
ROUNDS=8 N=3
# AddressSanitizer holds freed memory back; without its quarantine it hands handles back too.
[ "${SANITIZERS:-no}" = yes ] &&
	export ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=0:thread_local_quarantine_size_kb=0"

record_env "$T/out" "$APPS/hip-streams" "$ROUNDS" "$N" >"$T/out.txt" 2>"$T/err.txt"
ok $? "hip-streams runs under the recorder"
"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"
reused=$(sed -n 's/^reused=//p' "$T/out.txt")
if [ "${reused:-0}" -gt 0 ]; then
	ok 0 "the allocator gave $reused streams the handle of one of the other device"
else
	skip "the allocator never gave a stream an earlier one's handle (nothing to check)"
fi
pycheck "every launch is recorded on its stream's device" \
	launch-devices "$T/trace.json" "$ROUNDS" "$N"
finish
