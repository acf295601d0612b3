#!/bin/sh
# The recorder's environment: nothing is written unless TPROF_ENABLE says so; a bad value is
# one warning naming the variable and the default (for TPROF_ENABLE=maybe the default is
# off), once a job however many processes it starts; TPROF_MAX_EVENTS caps what is kept and the summary accounts for every event
# attempted; TPROF_CLOCK=monotonic records the same.
. "$(dirname "$0")/lib.sh"
plan 22
THREADS=4 N=5000
ATTEMPTED=$((THREADS * N))

# run NAME VAR=VALUE...: runs apps/marks with the recorder preloaded and the given
# environment (TPROF_OUTPUT_DIR=$T/NAME); output in $T/NAME.out, $T/NAME.err.
run() {
	_n=$1
	shift
	env -u TPROF_ENABLE LD_PRELOAD="$PRELOAD_ENV" TPROF_OUTPUT_DIR="$T/$_n" "$@" \
		"$APPS/marks" "$THREADS" "$N" >"$T/$_n.out" 2>"$T/$_n.err"
}
# events NAME: the summary's event count of $T/NAME, without commas.
events() {
	"$ANALYZE" "$T/$1" --summary >"$T/$1.summary" 2>"$T/$1.analyze.err" &&
		sed -n 's/.*events: \([0-9,]*\)$/\1/p' "$T/$1.summary" | tr -d ,
}

run unset
[ $? -eq 0 ] && grep -qx "attempted=$ATTEMPTED" "$T/unset.out" && [ ! -e "$T/unset" ] && [ ! -s "$T/unset.err" ]
ok $? "TPROF_ENABLE unset: the program runs, nothing is written, nothing said"
run zero TPROF_ENABLE=0
[ $? -eq 0 ] && grep -qx "attempted=$ATTEMPTED" "$T/zero.out" && [ ! -e "$T/zero" ] && [ ! -s "$T/zero.err" ]
ok $? "TPROF_ENABLE=0: the program runs, nothing is written, nothing said"
run maybe TPROF_ENABLE=maybe
[ $? -eq 0 ] && grep -qx "attempted=$ATTEMPTED" "$T/maybe.out" && [ ! -e "$T/maybe" ]
ok $? "TPROF_ENABLE=maybe: the program runs and, the value not being a boolean, nothing is recorded"
[ "$(recorder_lines "$T/maybe.err")" -eq 1 ] && grep -q '^tprof\[[0-9]*\]: warning: .*TPROF_ENABLE' "$T/maybe.err"
ok $? "TPROF_ENABLE=maybe: exactly one warning, naming TPROF_ENABLE"

run on TPROF_ENABLE=1
[ $? -eq 0 ] && [ ! -s "$T/on.err" ] && [ "$(events on)" = "$ATTEMPTED" ]
ok $? "TPROF_ENABLE=1: all $ATTEMPTED marks recorded, nothing said"

# bad values: one warning naming the variable; recording goes on with the default.
for setting in TPROF_BUFFER_KB=abc TPROF_MAX_EVENTS=-5 TPROF_CLOCK=sundial TPROF_BUFFER_KB=18; do
	var=${setting%%=*}
	tag=$(echo "$setting" | tr -c 'A-Za-z0-9\n' _)
	run "$tag" TPROF_ENABLE=1 "$setting"
	rc=$?
	n=$(recorder_lines "$T/$tag.err")
	[ "$rc" -eq 0 ] && [ "$n" -eq 1 ] && grep -q "^tprof\[[0-9]*\]: warning: .*$var" "$T/$tag.err" &&
		[ "$(wc -l <"$T/$tag.err")" -eq 1 ]
	ok $? "$setting: exactly one warning line, naming $var (got $n)"
	[ "$n" -eq 1 ] || diag "$(cat "$T/$tag.err")"
	got=$(events "$tag")
	[ "$got" = "$ATTEMPTED" ]
	ok $? "$setting: recording goes on with the default: all $ATTEMPTED marks kept (got ${got:-none})"
done

# Once a job: a shell script starting 10 processes (one with an emptied environment, which
# the recorder fills again), with two bad values, says each once; a second job says them
# again; the same through tprof-inspect.
script='for i in 1 2 3 4 5 6 7 8 9; do sh -c true; done; env -i PATH="$PATH" sh -c true'
for job in one two; do
	env -u TPROF_JOB -u TPROF_JOB_FROM LD_PRELOAD="$PRELOAD_ENV" TPROF_ENABLE=1 \
		TPROF_OUTPUT_DIR="$T/job-$job" TPROF_BUFFER_KB=abc TPROF_CLOCK=sundial \
		sh -c "$script" >/dev/null 2>"$T/job-$job.err"
done
[ "$(recorder_lines "$T/job-one.err")" -eq 2 ] && [ "$(recorder_lines "$T/job-two.err")" -eq 2 ] &&
	[ "$(grep -c "TPROF_BUFFER_KB=\"abc\"" "$T/job-one.err")" -eq 1 ] &&
	[ "$(grep -c "TPROF_CLOCK=\"sundial\"" "$T/job-one.err")" -eq 1 ]
ok $? "two bad values under a script of 11 processes: two warnings a job (got $(recorder_lines "$T/job-one.err"), then $(recorder_lines "$T/job-two.err"))"
[ "$(recorder_lines "$T/job-one.err")" -eq 2 ] || diag "$(head -5 "$T/job-one.err")"
TPROF_BUFFER_KB=abc TPROF_CLOCK=sundial "$INSPECT" -o "$T/job-inspect" -- sh -c "$script" \
	>/dev/null 2>"$T/job-inspect.err"
[ "$(recorder_lines "$T/job-inspect.err")" -eq 2 ]
ok $? "the same under tprof-inspect: two warnings (got $(recorder_lines "$T/job-inspect.err"))"
TPROF_BUFFER_KB=abc "$INSPECT" -o "$T/job-changed" -- sh -c \
	'sh -c true; TPROF_BUFFER_KB=xyz sh -c true; sh -c true' >/dev/null 2>"$T/job-changed.err"
[ "$(recorder_lines "$T/job-changed.err")" -eq 2 ] && grep -q 'TPROF_BUFFER_KB="xyz"' "$T/job-changed.err"
ok $? "a process of the job with another bad value says its own (got $(recorder_lines "$T/job-changed.err"))"

# TPROF_MAX_EVENTS: a cap, and an exact account of what was dropped.
run max TPROF_ENABLE=1 TPROF_MAX_EVENTS=1000
[ $? -eq 0 ] && grep -qx "attempted=$ATTEMPTED" "$T/max.out" && [ ! -s "$T/max.err" ]
ok $? "TPROF_MAX_EVENTS=1000: the program runs as usual"
got=$(events max)
[ -n "$got" ] && [ "$got" -gt 0 ] && [ "$got" -le 1000 ]
ok $? "TPROF_MAX_EVENTS=1000: at most 1000 events kept (${got:-none})"
dropped=$(sed -n 's/^  dropped: *\([0-9,]*\).*/\1/p' "$T/max.summary" | tr -d ,)
[ -n "$got" ] && [ -n "$dropped" ] && [ $((got + dropped)) -eq "$ATTEMPTED" ] &&
	grep -q "dropped: .*\[TPROF_MAX_EVENTS reached: " "$T/max.summary"
ok $? "TPROF_MAX_EVENTS=1000: kept ($got) + dropped (${dropped:-none}) = attempted ($ATTEMPTED), reason given"
"$ANALYZE" "$T/max" --format chrome -o "$T/max.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" capped-marks "$T/max.json" "${got:-0}"
ok $? "TPROF_MAX_EVENTS=1000: the Chrome trace holds the same ${got:-0} marks"

# TPROF_CLOCK=monotonic: same counts, a valid trace.
run mono TPROF_ENABLE=1 TPROF_CLOCK=monotonic
[ $? -eq 0 ] && [ ! -s "$T/mono.err" ] && [ "$(events mono)" = "$ATTEMPTED" ]
ok $? "TPROF_CLOCK=monotonic: all $ATTEMPTED marks recorded, nothing said"
"$ANALYZE" "$T/mono" --format chrome -o "$T/mono.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" monotonic-marks "$T/mono.json" "$ATTEMPTED"
ok $? "TPROF_CLOCK=monotonic: the Chrome trace has 4 threads x $N marks, in time order"
finish
