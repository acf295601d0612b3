#!/bin/sh
# A profile written by an earlier tprof still reads: traces/tprof-v1/ holds chunks of the
# record codec's version 1 (extension units verbatim, encoding 1), and the analyzer of today
# shows every event, duration and argument of it as the analyzer of that time did (its Chrome
# output's fingerprint, kept beside it).  A profile recorded now is written in version 2.
. "$(dirname "$0")/lib.sh"
plan 6

V1="$top_srcdir/tests/traces/tprof-v1"

# print-encodings FILE...: the set of chunk encodings in the trace files, one per line.
[ "$("$PY" -B "$CHECKS" print-encodings "$V1"/*.tpf)" = 1 ]
ok $? "the kept profile is of the old format: every chunk of encoding 1"

mkdir "$T/v1" && cp "$V1"/*.tpf "$T/v1/"
"$ANALYZE" "$T/v1" --format chrome -o "$T/v1.json" 2>"$T/v1.err" && ! grep -q warning "$T/v1.err"
ok $? "it converts to Chrome JSON without a warning"

# The fingerprint: per (phase, category, name) the events and their summed duration (ns),
# and per name each set of arguments with how many events carry it (print-fingerprint).
"$PY" -B "$CHECKS" print-fingerprint "$T/v1.json" >"$T/v1.fp" &&
	diff "$V1/chrome-fingerprint.txt" "$T/v1.fp" >"$T/v1.diff"
ok $? "every event, duration and argument as the analyzer of its time showed them" ||
	head -n 20 "$T/v1.diff" | sed 's/^/# /'
grep -q 'hipLaunchKernel.*3000' "$T/v1.fp" && grep -q '^event	X	kernel	.*	3000	' "$T/v1.fp"
ok $? "its 3,000 launches (extension units) and their kernels are there"

"$ANALYZE" "$T/v1" --summary >"$T/v1.sum" 2>&1 && grep -q 'events: 7,751' "$T/v1.sum" &&
	grep -q '^  dropped: *0' "$T/v1.sum" && grep -q '^  skipped: *0' "$T/v1.sum"
ok $? "its summary counts 7,751 events, none dropped or skipped"

record_env "$T/now" "$APPS/threads" 2 100 >/dev/null 2>"$T/now.err"
[ "$("$PY" -B "$CHECKS" print-encodings "$T/now"/*.tpf)" = 3 ]
ok $? "a profile recorded now is written in the codec's version 2 (encoding 3)"
finish
