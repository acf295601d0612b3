#!/bin/sh
# Output that cannot be written: a directory that cannot be created (under a regular file,
# under /proc), and a file system that fills up while recording.  The program must not
# notice: same output, same status, one warning from the recorder; what was written before
# the disk filled is still readable.  tprof-inspect refuses an output directory it cannot
# create, naming it.
. "$(dirname "$0")/lib.sh"
plan 11

: >"$T/plain-file"
for dir in "$T/plain-file/sub" /proc/tprof-no-such-dir/sub; do
	record_env "$dir" "$APPS/threads" 4 200 >"$T/uw.out" 2>"$T/uw.err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(cat "$T/uw.out")" = "threads=4 iterations=200" ]
	ok $? "output dir $dir: the program's output and status (0) are unchanged (status $rc)"
	n=$(recorder_lines "$T/uw.err")
	[ "$n" -eq 1 ] && grep -q "^tprof\[[0-9]*\]: warning: .*$dir" "$T/uw.err" &&
		[ "$(wc -l <"$T/uw.err")" -eq 1 ]
	ok $? "output dir $dir: exactly one warning line, naming the directory (got $n)"
	[ "$n" -eq 1 ] || diag "$(cat "$T/uw.err")"
done

# tprof-inspect checks the directory itself before running anything.
"$INSPECT" -o "$T/plain-file/sub" -- "$APPS/threads" 1 1 >"$T/ins.out" 2>"$T/ins.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "^tprof-inspect: .*'$T/plain-file/sub'" "$T/ins.err" && [ ! -s "$T/ins.out" ]
ok $? "tprof-inspect -o with an uncreatable directory: exit 2 (got $rc), the message names it, the command is not run"

# A full disk: a 256 KiB tmpfs, and far more events than fit.
full="$T/full"
mkdir "$full"
if [ "$(id -u)" -ne 0 ]; then
	for i in 1 2 3 4 5 6; do skip "full disk: needs root to mount a small tmpfs"; done
elif ! mount -t tmpfs -o size=256k tmpfs "$full" 2>"$T/mount.err"; then
	diag "mount: $(cat "$T/mount.err")"
	for i in 1 2 3 4 5 6; do skip "full disk: cannot mount a tmpfs here"; done
else
	trap 'umount "$full" 2>/dev/null; rm -rf "$T"' EXIT
	# 16 KiB buffers, so the spool starts small enough to fit; 4 threads x 20000 iterations
	# of 6 records each need megabytes.
	TPROF_BUFFER_KB=16 record_env "$full/out" "$APPS/threads" 4 20000 >"$T/full.out" 2>"$T/full.err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(cat "$T/full.out")" = "threads=4 iterations=20000" ]
	ok $? "full disk: the program's output and status (0) are unchanged (status $rc)"
	n=$(recorder_lines "$T/full.err")
	[ "$n" -eq 1 ] && grep -q '^tprof\[[0-9]*\]: warning: .*No space left on device' "$T/full.err"
	ok $? "full disk: one warning line from the recorder, saying the device is full (got $n)"
	[ "$n" -eq 1 ] || diag "$(cat "$T/full.err")"
	check "full disk: the recorder wrote a trace file before the disk filled" \
		sh -c 'ls "$1"/*.tpf >/dev/null 2>&1' sh "$full/out"
	"$ANALYZE" "$full/out" --summary >"$T/full.summary" 2>"$T/full.analyze.err"
	ok $? "full disk: the analyzer reads what was written (exit 0)"
	events=$(sed -n 's/.*events: \([0-9,]*\)$/\1/p' "$T/full.summary" | tr -d ,)
	[ -n "$events" ] && [ "$events" -gt 0 ] && [ "$events" -lt 320002 ]
	ok $? "full disk: some but not all events were kept (${events:-none} of 320,002)"
	"$ANALYZE" "$full/out" --format chrome -o "$T/full.json" 2>>"$T/full.analyze.err" &&
		"$PY" -B "$CHECKS" intact-marks "$T/full.json"
	ok $? "full disk: the Chrome trace of what was kept is valid JSON with intact marks"
	umount "$full"
fi
finish
