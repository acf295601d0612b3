#!/bin/sh
# Every way a process can end: return from main, exit() from another thread, _exit, abort,
# SIGSEGV, SIGKILL from itself and kill -9 from outside.  For each, the status through
# tprof-inspect is the status without it, every recorded event is in the trace, and the
# summary says whether the process got to its final flush.
. "$(dirname "$0")/lib.sh"
K=5000
MODES="return thread _exit abort segv kill wait"
plan 28
ulimit -c 0 2>/dev/null

# expected status without the profiler, by mode
want_status() {
	case $1 in
	return) echo 4 ;; thread) echo 7 ;; _exit) echo 9 ;; abort) echo 134 ;;
	segv) echo 139 ;; kill | wait) echo 137 ;;
	esac
}

# run_app MODE READY [PROFILE_DIR]: runs exits MODE, with tprof-inspect when a profile
# directory is given; prints the exit status.  "wait" is killed with kill -9 once ready.
run_app() {
	_m=$1 _r=$2
	rm -f "$_r"
	if [ $# -gt 2 ]; then
		set -- "$INSPECT" -o "$3" -- "$APPS/exits" "$_m" "$K" "$_r"
	else
		set -- "$APPS/exits" "$_m" "$K" "$_r"
	fi
	if [ "$_m" = wait ]; then
		"$@" >"$_r.out" 2>"$_r.err" &
		_bg=$!
		if wait_file "$_r" 20; then
			read -r _word _pid <"$_r"
			kill -9 "$_pid"
		else
			diag "mode wait: no ready file after 20 s"
			kill -9 "$_bg"
		fi
		wait "$_bg"
		echo $?
	else
		"$@" >"$_r.out" 2>"$_r.err"
		echo $?
	fi
}

for m in $MODES; do
	plain=$(run_app "$m" "$T/ready.$m.plain")
	prof=$(run_app "$m" "$T/ready.$m" "$T/out.$m")
	want=$(want_status "$m")
	if [ "$m" = segv ] && [ "${SANITIZERS:-no}" = yes ]; then
		want=$plain  # AddressSanitizer turns the fault into its own report and exit status
	fi
	[ "$prof" = "$plain" ] && [ "$plain" = "$want" ]
	ok $? "$m: status $prof through tprof-inspect, $plain without it (want $want)"

	"$ANALYZE" "$T/out.$m" --format chrome -o "$T/$m.json" 2>"$T/$m.analyze.err" &&
		"$PY" -B "$CHECKS" all-events "$T/$m.json" "$K"
	ok $? "$m: the trace holds exactly $K ranges and $K marks on each of the two threads"

	"$ANALYZE" "$T/out.$m" --summary >"$T/$m.summary" 2>>"$T/$m.analyze.err"
	case $m in
	return | thread)
		! grep -q 'final flush' "$T/$m.summary" && grep -q "events: 20,000" "$T/$m.summary"
		ok $? "$m: the summary counts 20,000 events and notes no missing final flush"
		check "$m: the recorder wrote nothing on stderr" test "$(recorder_lines "$T/ready.$m.err")" -eq 0
		;;
	*)
		grep -q 'no final flush' "$T/$m.summary" && grep -q "events: 20,000" "$T/$m.summary"
		ok $? "$m: the summary counts 20,000 events and notes the process ended without a final flush"
		if [ "$m" = wait ] || [ "$m" = kill ]; then
			check "$m: the data survived in the spool left behind" sh -c 'ls "$1"/*.spool >/dev/null' sh "$T/out.$m"
		else
			check "$m: the recorder wrote nothing on stderr" test "$(recorder_lines "$T/ready.$m.err")" -eq 0
		fi
		;;
	esac
	[ -s "$T/$m.summary" ] || diag "$(cat "$T/$m.analyze.err")"
done
finish
