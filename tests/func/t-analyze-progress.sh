#!/bin/sh
# tprof-analyze's progress line.  On a terminal (a pseudo-terminal made by util-linux
# script) it shows the reading of the files (bytes, records so far) and each pass over the
# records (records read of all of them, a rate), rewritten in place and erased at the end,
# while the outputs stay what they are without it; nothing in the first second, nothing when
# stderr is not a terminal; --progress forces it, --no-progress silences it.
# TPROF_PROGRESS_DELAY_MS is a test knob (the first second, in milliseconds): 0 makes the
# first update immediate, so that an analysis of a small trace shows the line, and draws every
# update (none waits a quarter second), so that each phase's last count shows however fast or
# slow the machine is.
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null 2>&1 || skip_all "no script (util-linux) to make a pseudo-terminal"
plan 13

# on_pty FILE COMMAND: runs the shell command line COMMAND on a pseudo-terminal (standard
# input, output and error); what the terminal received goes to FILE.
on_pty() { _f=$1; shift; script -qfec "$*" /dev/null </dev/null >"$_f"; }

# What a terminal received is read back by the checks (tools/checks/analyze-progress.py).

"$INSPECT" -o "$T/out" -- "$APPS/threads" 4 20000 >"$T/out.txt" 2>"$T/err.txt" &&
	grep -qx 'threads=4 iterations=20000' "$T/out.txt"
ok $? "the program runs under tprof-inspect"

# The reference: stderr is a file, so no progress line, even with no delay.
ARGS="--steps 0 --summary --format chrome"
TPROF_PROGRESS_DELAY_MS=0 "$ANALYZE" "$T/out" $ARGS -o "$T/ref.json" >"$T/ref.sum" 2>"$T/ref.err"
ok $? "tprof-analyze runs with stderr to a file"
printf 'tprof-analyze: Chrome trace written to %s\n' "$T/ref.json" | cmp -s - "$T/ref.err"
ok $? "stderr to a file: no progress text, only the usual line"

on_pty "$T/pty.out" "TPROF_PROGRESS_DELAY_MS=0 '$ANALYZE' '$T/out' $ARGS -o '$T/pty.json' >'$T/pty.sum'"
ok $? "tprof-analyze runs on a terminal"
"$PY" -B "$CHECKS" phases-shown "$T/pty.out"
ok $? "on a terminal: reading (bytes, records), finding steps and merging (records read/total, rate)"
"$PY" -B "$CHECKS" line-erased "$T/pty.out" "$T/pty.json"
ok $? "the progress line is erased: the terminal ends with the usual line alone"
cmp -s "$T/ref.sum" "$T/pty.sum" && cmp -s "$T/ref.json" "$T/pty.json"
ok $? "the summary and the Chrome trace are those written without the progress line"

# The first second stays quiet: this analysis takes less.
on_pty "$T/quiet.out" "'$ANALYZE' '$T/out' --steps 0 >'$T/quiet.sum'" &&
	cmp -s "$T/ref.sum" "$T/quiet.sum"
ok $? "on a terminal without the knob: tprof-analyze runs"
check "a short analysis shows nothing on the terminal" test ! -s "$T/quiet.out"

# --progress: even to a file.
TPROF_PROGRESS_DELAY_MS=0 "$ANALYZE" "$T/out" --steps 0 --progress >"$T/forced.sum" 2>"$T/forced.err" &&
	cmp -s "$T/ref.sum" "$T/forced.sum" &&
	"$PY" -B "$CHECKS" forced-to-file "$T/forced.err"
ok $? "--progress: the line is drawn (and erased) with stderr to a file, the summary unchanged"

# --no-progress: nothing on a terminal.
on_pty "$T/off.out" "TPROF_PROGRESS_DELAY_MS=0 '$ANALYZE' '$T/out' --steps 0 --no-progress >'$T/off.sum'" &&
	cmp -s "$T/ref.sum" "$T/off.sum"
ok $? "--no-progress on a terminal: tprof-analyze runs, the summary unchanged"
check "--no-progress: nothing on the terminal" test ! -s "$T/off.out"

# A process killed by SIGKILL: most of its 240000 records (2 threads of 40000 ranges and
# marks) are in its spool, and count in the totals.
"$INSPECT" -o "$T/kill" -- "$APPS/exits" kill 40000 >"$T/kill.txt" 2>&1
grep -qx 'recorded mode=kill k=40000' "$T/kill.txt" && test -s "$T/kill"/*.spool &&
	TPROF_PROGRESS_DELAY_MS=0 "$ANALYZE" "$T/kill" --progress >/dev/null 2>"$T/kill.err" &&
	"$PY" -B "$CHECKS" killed-counts "$T/kill.err"
ok $? "a killed process: the spool's records count (reading: 240k records; merging: of 240k)"
finish
