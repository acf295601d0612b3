#!/bin/sh
# The summary of a job with more ranks than --ranks (16 by default): one header line for its
# processes, listing only unusual ones; each per-rank table (devices, idle gaps, MPI by rank,
# clock alignment) shown as its least, median and most rows; --ranks all shows every one; JSON is the same
# either way; a bad --ranks names itself (tools/checks/summary-ranks.py).
. "$(dirname "$0")/lib.sh"
GEN="$top_builddir/tests/tools/gen-profile"
[ -x "$GEN" ] || skip_all "tools/gen-profile was not built"
plan 10

"$GEN" -r 40 -s 6 -k "$T/p" >/dev/null
ok $? "a profile of 40 ranks on 5 hosts, with kernels"
"$ANALYZE" "$T/p" --summary >"$T/text" 2>"$T/err" &&
	"$ANALYZE" "$T/p" --summary=json >"$T/json" 2>>"$T/err"
ok $? "summarized as text and JSON"
pycheck_in summary-ranks "a line for the processes; least, median and most rows of each table" \
	collapsed "$T/json" "$T/text" 40 5
"$ANALYZE" "$T/p" --summary --ranks all >"$T/all" 2>>"$T/err"
ok $? "--ranks all"
pycheck_in summary-ranks "--ranks all: every process and row" every "$T/all" 40
"$ANALYZE" "$T/p" --summary --ranks 64 >"$T/n64" 2>>"$T/err"
check "--ranks 64 (the clock table's rows) shows what --ranks all does" cmp -s "$T/all" "$T/n64"
"$ANALYZE" "$T/p" --summary=json --ranks 3 >"$T/json3" 2>>"$T/err"
check "JSON is the same whatever --ranks" cmp -s "$T/json" "$T/json3"
f=$(ls "$T"/p/*.10005.*)
truncate -s "$(($(stat -c %s "$f") - 64))" "$f"
"$ANALYZE" "$T/p" --summary >"$T/odd" 2>/dev/null
pycheck_in summary-ranks "a rank without its final flush is listed under that line" odd "$T/odd"
"$ANALYZE" "$T/p" --summary --ranks 0 >/dev/null 2>"$T/bad"
check "--ranks 0 is refused (exit 2)" test $? -eq 2
check "... naming the option" grep -q "^tprof-analyze: --ranks: '0' is neither" "$T/bad"
finish
