#!/bin/sh
# time-limit.sh TEST [ARG...] — how `make check` runs each test: in a session of its own,
# under a time limit (TEST_TIME_LIMIT seconds, 900 unless set), so that a test that hangs
# fails with what it was still running instead of holding the whole suite until CI's own
# limit ends it unnamed; and with its wall time as the last line of its log.  On a limit
# reached: a TAP "Bail out!" line (the test counts as an ERROR), the test's processes listed
# as TAP comments, then the whole session ended (TERM, and KILL 10 s later).
limit=${TEST_TIME_LIMIT:-900}
start=$(date +%s)
setsid "$@" &
pid=$!
# make's interrupt reaches this script, not the test's own session: pass it on.
trap 'kill -TERM -"$pid" 2>/dev/null; exit 130' INT TERM HUP
(
	sleep "$limit" </dev/null >/dev/null 2>&1
	kill -0 "$pid" 2>/dev/null || exit 0
	echo "Bail out! $* still running after $limit s (TEST_TIME_LIMIT); its processes:"
	ps -eo sid=,pid=,etimes=,args= | awk -v s="$pid" '$1 == s { $1 = ""; print "#" $0 }'
	kill -TERM -"$pid" 2>/dev/null
	sleep 10 </dev/null >/dev/null 2>&1
	kill -KILL -"$pid" 2>/dev/null
) &
watch=$!
wait "$pid"
rc=$?
pkill -P "$watch" sleep 2>/dev/null
kill "$watch" 2>/dev/null
echo "# time-limit: $* took $(($(date +%s) - start)) s"
exit "$rc"
