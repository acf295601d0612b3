#!/bin/sh
# Ranges around lost records are paired exactly: 64 threads (and threads they start) record,
# inside one range "work" each, push "iter", mark "m", pop, in a spool of 1 MB, far too small,
# so that the recorder loses records by the hundred thousand.  No range is joined to another
# one: on every thread the ranges nest, an "iter" range holds no other range and at most its
# own mark, a range whose begin or end was lost is shown cut and counted, none is left
# unfinished (the program closed them all), and what was recorded plus what was counted as
# lost is what the program made, exactly.
. "${top_srcdir}/tests/func/lib.sh"
plan 5

mkdir -p "$T/counts"
TPROF_SPOOL_MB=1 TPROF_BUFFER_KB=64 TPROF_COMPRESS_LEVEL=9 \
	record_env "$T/out" "$APPS/loadfault" "$T/counts" 64 3000 0 >"$T/app.out" 2>"$T/app.err"
check "the program ran to its end" grep -qx done "$T/app.out"
"$ANALYZE" "$T/out" --summary=json >"$T/sum.json" 2>"$T/analyze.err" &&
	"$ANALYZE" "$T/out" --format chrome -o "$T/t.json" 2>>"$T/analyze.err"
ok $? "the summary and the Chrome trace are written"
[ -s "$T/t.json" ] || diag "$(cat "$T/analyze.err" "$T/app.err")"

"$PY" -B "$CHECKS" made-equals-counted "$T/sum.json" "$T/counts"
ok $? "records were lost, and recorded + counted as lost == made, exactly"

"$PY" -B "$CHECKS" ranges-nest "$T/t.json" "$T/cut"
ok $? "ranges nest, an iter range holds no range and at most its mark, none unfinished"

"$PY" -B "$CHECKS" cut-counted "$T/sum.json" "$T/cut"
ok $? "every range shown cut is counted in the summary, no pop unmatched"
finish
