#!/bin/sh
# More files than descriptors: a profile of 400 processes (every fourth killed, its marks only
# in its spool) read with `ulimit -n` at 64 and at 16 gives the very summary and Chrome trace
# an unlimited run gives, every process and every record in them.
. "$(dirname "$0")/lib.sh"
plan 9

MK="$top_builddir/tests/tools/mk-hostile"
"$MK" procs "$T/p" 400 >/dev/null
ok $? "400 process images written ($(ls "$T/p" | wc -l) files)"

"$ANALYZE" "$T/p" --summary >"$T/all.sum" 2>"$T/all.err" &&
	"$ANALYZE" "$T/p" --format chrome -o "$T/all.json" 2>>"$T/all.err"
ok $? "read without a limit"
grep -q "processes: *400 .*events: 1,200$" "$T/all.sum" && grep -q "skipped: *0$" "$T/all.sum"
ok $? "400 processes, 1200 events, nothing skipped"
diag "$(grep "processes:" "$T/all.sum")"

for n in 64 16; do
	(ulimit -n $n && "$ANALYZE" "$T/p" --summary >"$T/$n.sum" 2>"$T/$n.err" &&
		"$ANALYZE" "$T/p" --format chrome -o "$T/$n.json" 2>>"$T/$n.err")
	ok $? "read with ulimit -n $n"
	cmp -s "$T/all.sum" "$T/$n.sum" && cmp -s "$T/all.json" "$T/$n.json"
	ok $? "ulimit -n $n: the same summary and Chrome trace as without a limit"
	[ -s "$T/$n.err" ] && grep -q warning "$T/$n.err" && diag "$(head -3 "$T/$n.err")"
	! grep -q warning "$T/$n.err"
	ok $? "ulimit -n $n: no warning"
done
finish
