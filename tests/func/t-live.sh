#!/bin/sh
# A profile read while its process still runs: the process is said to be still running
# (live), not killed, and what it wrote so far is read whole, without warnings and without a
# record counted as skipped, although one of its threads keeps writing (filling buffers,
# handing them to the flusher, reusing them) while the analyzer reads.  Once the process has
# ended, its profile reads as any other, every record there.
. "$(dirname "$0")/lib.sh"
plan 13

# 2 threads x 20000 marks with 16 KiB buffers (about 500 records each: buffers flushed and
# reused all the time), then a thread marking without pause until stdin closes.
mkfifo "$T/ctl"
TPROF_BUFFER_KB=16 record_env "$T/live" "$APPS/hold" 2 20000 <"$T/ctl" >"$T/hold.out" 2>"$T/hold.err" &
pid=$!
exec 3>"$T/ctl"
i=0
until grep -q ready "$T/hold.out" 2>/dev/null || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
grep -q ready "$T/hold.out"
ok $? "the program recorded its 40000 marks and keeps recording"
sleep 0.5

"$ANALYZE" "$T/live" --summary >"$T/live.sum" 2>"$T/live.err"
ok $? "the running process's profile is analyzed"
grep -q "still running (live)" "$T/live.sum" && ! grep -q "killed or crashed" "$T/live.sum"
ok $? "the process is said to be still running, not killed"
[ -s "$T/live.sum" ] && diag "$(sed -n '1,6p' "$T/live.sum")"
grep -q "skipped: *0$" "$T/live.sum"
ok $? "nothing is counted as skipped while its buffers are being written"
[ ! -s "$T/live.err" ]
ok $? "no warning"
[ -s "$T/live.err" ] && diag "$(head -5 "$T/live.err")"
"$ANALYZE" "$T/live" --summary --summary-format json 2>/dev/null |
	"$PY" -B "$CHECKS" live-no-final-flush
ok $? "the JSON summary says live, no final flush"
"$ANALYZE" "$T/live" --format chrome -o "$T/live.json" 2>"$T/live2.err"
# The marks named "mark" and "busy" in the Chrome trace.
set -- $("$PY" -B "$CHECKS" count-marks "$T/live.json") x x
diag "while running: $1 marks, $2 busy marks read"
[ "$1" = 40000 ] && ! grep -q warning "$T/live2.err"
ok $? "every mark written before it was read is there ($1 of 40000), without a warning"

# Copies of its files under the name of a pid that does not exist, and of one that a
# process started after the spool was made holds: neither writer runs.
host=$(hostname | tr / _)
mkdir "$T/gone" "$T/reused"
sleep 60 &
other=$!
for f in "$T/live"/*.tpf "$T/live"/*.spool; do
	cp "$f" "$T/gone/$host.999999999.0000abcd.${f##*.}"
	cp "$f" "$T/reused/$host.$other.0000abcd.${f##*.}"
done
"$ANALYZE" "$T/gone" --summary >"$T/gone.sum" 2>/dev/null
grep -q "killed or crashed" "$T/gone.sum" && ! grep -q "still running" "$T/gone.sum"
ok $? "a spool whose writer's pid no longer exists is a killed process's"
"$ANALYZE" "$T/reused" --summary >"$T/reused.sum" 2>/dev/null
grep -q "killed or crashed" "$T/reused.sum" && ! grep -q "still running" "$T/reused.sum"
ok $? "so is one whose pid a later process holds"
kill $other 2>/dev/null

exec 3>&-
wait $pid
ok $? "the program ends normally once its input closes"
busy=$(sed -n 's/^busy=//p' "$T/hold.out")
"$ANALYZE" "$T/live" --summary >"$T/done.sum" 2>"$T/done.err"
! grep -q "still running\|killed or crashed" "$T/done.sum" && grep -q "skipped: *0$" "$T/done.sum"
ok $? "once it has ended: no longer live, nothing skipped"
"$ANALYZE" "$T/live" --format chrome -o "$T/done.json" 2>>"$T/done.err"
set -- $("$PY" -B "$CHECKS" count-marks "$T/done.json") x x
[ "$1" = 40000 ] && [ "$2" = "$busy" ]
ok $? "and every mark is read: $1 of 40000, $2 busy of $busy"
! grep -q warning "$T/done.err"
ok $? "without a warning"

finish
