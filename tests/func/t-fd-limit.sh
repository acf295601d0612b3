#!/bin/sh
# More files than descriptors: a profile of 400 processes (every fourth killed, its marks only
# in its spool) read with `ulimit -n` at 64 and at 16 gives the very summary and Chrome trace
# an unlimited run gives, every process and every record in them.  The same for a Chrome trace
# of 400 processes imported (each becomes a file of the import's scratch directory, which the
# reader opens again by name when it reads it again).
. "$(dirname "$0")/lib.sh"
plan 13

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
	(ulimit -n $n && "$ANALYZE_ONLY" "$T/p" --summary >"$T/$n.sum" 2>"$T/$n.err" &&
		"$ANALYZE_ONLY" "$T/p" --format chrome -o "$T/$n.json" 2>>"$T/$n.err")
	ok $? "read with ulimit -n $n"
	cmp -s "$T/all.sum" "$T/$n.sum" && cmp -s "$T/all.json" "$T/$n.json"
	ok $? "ulimit -n $n: the same summary and Chrome trace as without a limit"
	[ -s "$T/$n.err" ] && grep -q warning "$T/$n.err" && diag "$(head -3 "$T/$n.err")"
	! grep -q warning "$T/$n.err"
	ok $? "ulimit -n $n: no warning"
done

"$PY" "$top_srcdir/tests/tools/mk-hostile-trace.py" pids 400 "$T/pids.json" >/dev/null
"$ANALYZE" --import "$T/pids.json" --summary >"$T/imp-all.sum" 2>"$T/imp-all.err"
ok $? "an imported trace of 400 processes is read without a limit"
for n in 64 16; do
	(ulimit -n $n && "$ANALYZE_ONLY" --import "$T/pids.json" --summary >"$T/imp-$n.sum" 2>"$T/imp-$n.err")
	cmp -s "$T/imp-all.sum" "$T/imp-$n.sum"
	ok $? "ulimit -n $n: the import's summary is the unlimited one"
done
grep -q "processes: *400 .*events: 400$" "$T/imp-16.sum" && grep -q "skipped: *0$" "$T/imp-16.sum" &&
	! grep -q . "$T/imp-all.err" "$T/imp-64.err" "$T/imp-16.err"
ok $? "every imported process and event is there, nothing skipped, no warning"
diag "$(grep "processes:" "$T/imp-16.sum")" "$(head -3 "$T/imp-16.err")"
finish
