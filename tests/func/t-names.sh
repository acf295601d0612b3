#!/bin/sh
# Hostile names for ranges, marks and counters (apps/names.c holds the same table as
# tools/checks/names.py): the Chrome trace must stay valid JSON and give each name back as
# the program wrote it: valid UTF-8 kept, each byte that is not part of valid UTF-8 turned
# into U+FFFD, control characters escaped, the empty name empty, a 10000-byte name cut to
# 8160 bytes, and names in a reused buffer each kept as they were at the call.
. "$(dirname "$0")/lib.sh"
plan 8

"$INSPECT" -o "$T/out" -- "$APPS/names" >"$T/out.txt" 2>"$T/err.txt" && grep -qx 'names=14' "$T/out.txt"
ok $? "the program runs under tprof-inspect"
"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"

"$PY" -B "$CHECKS" names-as-written "$T/trace.json"
ok $? "every non-empty name comes back as written (invalid bytes as U+FFFD), with exact counts"

"$PY" -B "$CHECKS" empty-name "$T/trace.json"
ok $? "the empty name comes back empty, with its exact count"

"$PY" -B "$CHECKS" counters-and-long-name "$T/trace.json"
ok $? "each counter sample is under its own name; the 10000-byte name is cut to 8160 bytes"

"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json.gz" 2>>"$T/analyze.err"
ok $? "tprof-analyze writes a gzip-compressed Chrome trace"
"$PY" -B "$CHECKS" gzip-same "$T/trace.json" "$T/trace.json.gz"
ok $? "the gzip trace parses with gzip+json and holds the same events"

"$ANALYZE" "$T/out" --summary >"$T/summary" 2>>"$T/analyze.err" &&
	"$PY" -B "$CHECKS" marks-rows "$T/summary"
ok $? "the summary prints one line per mark name (19), control bytes and all"
finish
