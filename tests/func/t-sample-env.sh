#!/bin/sh
# TPROF_SAMPLE with the recorder alone (LD_PRELOAD and TPROF_ENABLE=1, no tprof-inspect): each
# process samples itself from /proc into a system image of its own.  apps/sysload's known work
# must show (tools/sample-env-check.py: the parent's, the forked child's and the exec'ed
# child's images, thread states, CPU time, RSS), also as an unprivileged user; the output
# and exit status must not change; tprof-analyze must show the thread states and the memory
# with the host-wide counters once and each process's own; a bad value warns once and the
# program runs; an output directory that cannot be made stops the system image only; a
# program that exits before its image begins gets it, a child that execs before writes none
# (TPROF_TEST_SAMPLE_LAZY_MS), a failed exec goes on in a new image; whatever ends a process
# (_exit, abort, SIGSEGV, SIGKILL), its image holds what the sampler wrote before (from its
# spool); tprof-inspect samples once with TPROF_SAMPLE in its environment, and without it
# nothing samples.
. "$(dirname "$0")/lib.sh"
CHECK="$top_srcdir/tests/tools/sample-env-check.py"
[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
NCHECK=18
NRUN=$((NCHECK + 7))
ENDS="return _exit abort segv kill"
plan $((2 * NRUN + 16 + 3 * 5))
MIB=64

PLAIN=$T/plain.out
"$APPS/sysload" all $MIB 800 >"$PLAIN" 2>&1
plain_rc=$?
"$APPS/sysload" threads 50 >"$T/plain-threads.out" 2>&1
threads_rc=$?

# sampled DIR [ENV...] -- CMD...: CMD with the recorder and ENV, writing into DIR.
sampled() {
	_dir=$1
	shift
	_env=
	while [ "$1" != -- ]; do
		_env="$_env $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	env TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$_dir" LD_PRELOAD="$PRELOAD_ENV" $_env "$@"
}

# Prints the system images of dump-records output on stdin: "pid target arg1" each.
images() { "$PY" -B "$CHECKS" images; }

# run NAME [PREFIX...]: sysload all under the recorder with TPROF_SAMPLE=all, then its checks.
run() {
	_name=$1
	shift
	"$@" env TPROF_ENABLE=1 TPROF_SAMPLE=all TPROF_OUTPUT_DIR="$T/$_name" \
		SYSLOAD_RSS_FILE="$T/$_name.rss" LD_PRELOAD="$PRELOAD_ENV" "$APPS/sysload" all $MIB 800 >"$T/$_name.out" \
		2>"$T/$_name.err"
	_rc=$?
	[ "$_rc" -eq "$plain_rc" ] && cmp -s "$PLAIN" "$T/$_name.out"
	ok $? "$_name: stdout and exit status ($_rc) as without the recorder ($plain_rc)"
	[ "$(recorder_lines "$T/$_name.err")" -eq 0 ]
	ok $? "$_name: the recorder says nothing"
	[ -s "$T/$_name.err" ] && diag "stderr: $(cat "$T/$_name.err")"
	"$DUMP" "$T/$_name" >"$T/$_name.json" 2>"$T/$_name.dump.err"
	ok $? "$_name: dump-records reads the output directory"
	"$PY" "$CHECK" "$T/$_name.json" $MIB "$T/$_name.rss" >"$T/$_name.checks" 2>&1
	_n=0
	while IFS= read -r _line; do
		_n=$((_n + 1))
		case $_line in
		PASS\ *) ok 0 "$_name: ${_line#PASS }" ;;
		*) ok 1 "$_name: ${_line#FAIL }" ;;
		esac
	done <"$T/$_name.checks"
	while [ "$_n" -lt "$NCHECK" ]; do
		_n=$((_n + 1))
		ok 1 "$_name: check $_n did not run"
	done
	[ "$_n" -eq "$NCHECK" ] || diag "$(cat "$T/$_name.checks")"
	analyze "$_name"
}

# analyze NAME: the summary of run NAME, in text and JSON.
analyze() {
	"$ANALYZE" "$T/$1" --summary >"$T/$1.sum" 2>"$T/$1.sum.err" &&
		"$ANALYZE" "$T/$1" --summary=json >"$T/$1.sum.json" 2>>"$T/$1.sum.err"
	ok $? "$1: tprof-analyze --summary reads it"
	images <"$T/$1.json" >"$T/$1.images"
	P=$(awk '$3 == "all" { print $1 }' "$T/$1.images" | sort -n | head -n 1)
	C=$(awk '$3 == "threads" { print $1 }' "$T/$1.images")
	# the short-lived child's image, when it began before the child's _exit
	Z=$(awk -v p="$P" -v c="$C" '$3 == "all" && $1 != p && $1 != c { print $1 }' "$T/$1.images")
	grep -q '^Off-CPU time by thread' "$T/$1.sum" &&
		grep -Eq '^ +[0-9.]+ [mun]?s .* busy \(tid [0-9]+\) of sysload ' "$T/$1.sum" &&
		grep -Eq ' sleeper \(tid [0-9]+\) of sysload ' "$T/$1.sum" &&
		grep -q '^Memory (peaks of the samples)' "$T/$1.sum" &&
		grep -q " RSS of sysload (.*, pid $P)\$" "$T/$1.sum" &&
		grep -q " RSS of sysload (.*, pid $C)\$" "$T/$1.sum"
	ok $? "$1: the summary shows the thread states of busy and sleeper and the Memory table"
	pycheck "$1: CPU cores and host memory once for the host, of the system images named by pid" \
		host-counters "$T/$1.sum.json" "$P" "$C" $Z
	pycheck "$1: the child before and after its exec: two processes, each with its RSS and states" \
		child-exec "$T/$1.sum.json" "$C" $Z
}

run env

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	mkdir "$T/nobody" && chmod 777 "$T/nobody" && chmod 755 "$T"
	T_ROOT=$T
	T=$T/nobody
	run unprivileged setpriv --reuid=nobody --regid=nogroup --clear-groups
	T=$T_ROOT
else
	for _i in $(seq $NRUN); do
		skip "not root (or no setpriv, or no user nobody): the unprivileged run needs them"
	done
fi

# A bad value: one warning, no system image, the program as without the recorder.
bad() {
	_what=$1
	shift
	sampled "$T/bad" "$@" -- "$APPS/sysload" threads 50 >"$T/bad.out" 2>"$T/bad.err"
	_rc=$?
	[ "$_rc" -eq "$threads_rc" ] && cmp -s "$T/plain-threads.out" "$T/bad.out"
	ok $? "$*: stdout and exit status ($_rc) as without the recorder"
	[ "$(wc -l <"$T/bad.err")" -eq 1 ] &&
		grep -q "^tprof\[[0-9]*\]: warning: $_what.*; no system profile\$" "$T/bad.err"
	ok $? "$*: one warning line, naming $_what"
	[ "$(wc -l <"$T/bad.err")" -eq 1 ] || diag "stderr: $(cat "$T/bad.err")"
	[ ! -e "$T/bad" ]
	ok $? "$*: no system image"
	rm -rf "$T/bad"
}
bad "TPROF_SAMPLE=\"cpu,bogus\": unknown word 'bogus'" TPROF_SAMPLE=cpu,bogus
bad "TPROF_SAMPLE_HZ=\"0\" is not an integer from 1 to 10000" TPROF_SAMPLE=sched \
	TPROF_SAMPLE_HZ=0

# An output directory that cannot be made: one warning; the program runs as ever.
: >"$T/file"
sampled "$T/file/out" TPROF_SAMPLE=all -- "$APPS/sysload" threads 50 >"$T/nodir.out" \
	2>"$T/nodir.err"
_rc=$?
[ "$_rc" -eq "$threads_rc" ] && cmp -s "$T/plain-threads.out" "$T/nodir.out"
ok $? "an output directory under a file: stdout and exit status as without the recorder"
[ "$(wc -l <"$T/nodir.err")" -eq 1 ] &&
	grep -q "^tprof\[[0-9]*\]: warning: output directory $T/file/out: cannot create it: .*; not recording$" \
		"$T/nodir.err"
ok $? "an output directory under a file: one warning, no system profile"
[ "$(wc -l <"$T/nodir.err")" -eq 1 ] || diag "stderr: $(cat "$T/nodir.err")"

# Without TPROF_SAMPLE nothing samples (sysload makes no runtime call: nothing is written).
env -u TPROF_SAMPLE TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/off" LD_PRELOAD="$PRELOAD_ENV" \
	"$APPS/sysload" spawn 50 >/dev/null 2>&1
[ ! -e "$T/off" ]
ok $? "without TPROF_SAMPLE: no system image"

# A program that makes no runtime call and exits before its image begins still gets it
# (TPROF_TEST_SAMPLE_LAZY_MS: the image begins after 1 s, not 20 ms).
sampled "$T/true" TPROF_SAMPLE=mem TPROF_TEST_SAMPLE_LAZY_MS=1000 -- true
"$DUMP" "$T/true" | images >"$T/true.images"
[ "$(wc -l <"$T/true.images")" -eq 1 ] && "$DUMP" "$T/true" |
	"$PY" -B "$CHECKS" early-exit
ok $? "true (exits before the image begins): one system image, its process seen, END"

# A child that execs before its image begins (10 ms after its fork; the image begins after
# 1 s here, 20 ms by default) writes none before the exec: two images.
sampled "$T/spawn" TPROF_SAMPLE=sched TPROF_TEST_SAMPLE_LAZY_MS=1000 -- \
	"$APPS/sysload" spawn 50 >/dev/null 2>&1
"$DUMP" "$T/spawn" | images >"$T/spawn.images"
[ "$(awk '$3 == "spawn"' "$T/spawn.images" | wc -l)" -eq 1 ] &&
	[ "$(awk '$3 == "threads"' "$T/spawn.images" | wc -l)" -eq 1 ] &&
	[ "$(wc -l <"$T/spawn.images")" -eq 2 ]
ok $? "exec before the image begins: the parent's image and the new program's, none between"
[ "$(wc -l <"$T/spawn.images")" -eq 2 ] || diag "images: $(cat "$T/spawn.images")"

# An exec that fails ends the image; sampling goes on in a new one, which has the threads
# started after it.
sampled "$T/badexec" TPROF_SAMPLE=sched -- "$APPS/sysload" badexec 50 >/dev/null 2>&1
"$DUMP" "$T/badexec" >"$T/badexec.json"
images <"$T/badexec.json" >"$T/badexec.images"
[ "$(wc -l <"$T/badexec.images")" -eq 2 ] && [ "$(cut -d' ' -f1 "$T/badexec.images" | uniq |
	wc -l)" -eq 1 ] && "$PY" -B "$CHECKS" threads-after-exec "$T/badexec.json"
ok $? "a failed exec: the image before it and a new one after it, with the threads started then"
[ "$(wc -l <"$T/badexec.images")" -eq 2 ] || diag "images: $(cat "$T/badexec.images")"

# A process that returns from main while a thread still runs: the thread ends with it (TASK
# exit, SCHED exited at the image's last look); the main thread's end is the image's END.
sampled "$T/leave" TPROF_SAMPLE=sched -- "$APPS/sysload" leave 300 >"$T/leave.out" 2>&1
_rc=$?
"$DUMP" "$T/leave" | "$PY" -B "$CHECKS" thread-left 2>"$T/leave.err" && [ "$_rc" -eq 3 ] &&
	grep -qx "leave done" "$T/leave.out"
ok $? "a thread still running at the exit ends with the process; the main thread ends with END"
[ -s "$T/leave.err" ] && diag "$(cat "$T/leave.err")"

# Every end of a sampled process (apps/exits, waiting until its image has begun): the image
# holds its opening, its first counters and its process; END only after a normal exit, and
# the summary names the image, with no final flush where there was none, and no warning.
ulimit -c 0 2>/dev/null
for m in $ENDS; do
	"$APPS/exits" "$m" 100 >/dev/null 2>&1
	plain_rc=$?
	EXITS_AWAIT_SYSTEM_IMAGE="$T/end.$m" sampled "$T/end.$m" TPROF_SAMPLE=all -- \
		"$APPS/exits" "$m" 100 "$T/end.$m.ready" >/dev/null 2>"$T/end.$m.err"
	_rc=$?
	[ "$_rc" -eq "$plain_rc" ]
	ok $? "$m: exit status $_rc with the system profile, $plain_rc without"
	read -r _word _pid <"$T/end.$m.ready" || _pid=0
	"$DUMP" "$T/end.$m" >"$T/end.$m.json" 2>"$T/end.$m.dump.err"
	"$PY" -B "$CHECKS" ended-image "$T/end.$m.json" "$_pid" "$m" >"$T/end.$m.check" 2>&1
	ok $? "$m: the system image holds its opening, its first counters and its process"
	[ -s "$T/end.$m.check" ] && diag "$(cat "$T/end.$m.check")"
	"$ANALYZE" "$T/end.$m" --summary >"$T/end.$m.sum" 2>"$T/end.$m.sum.err"
	_line=$(grep -E "^ +[0-9]+  system \(.*, pid $_pid\)" "$T/end.$m.sum")
	if [ "$m" = return ]; then
		_want="listed, with its final flush"
		[ -n "$_line" ] && ! echo "$_line" | grep -q 'final flush'
	else
		_want="listed as read from its spool, with no final flush"
		echo "$_line" | grep -q 'no final flush.*read from its spool'
	fi && [ ! -s "$T/end.$m.sum.err" ]
	ok $? "$m: the summary's system image is $_want; no warning"
	[ -s "$T/end.$m.sum.err" ] && diag "$(cat "$T/end.$m.sum.err")"
done

# tprof-inspect with TPROF_SAMPLE in its environment samples once, itself: the command and
# its child (with the recorder) do not.
env TPROF_SAMPLE=sched "$INSPECT" -o "$T/insp" -- "$APPS/sysload" spawn 50 >/dev/null \
	2>"$T/insp.err"
"$DUMP" "$T/insp" | images >"$T/insp.images"
[ "$(wc -l <"$T/insp.images")" -eq 1 ] && awk '{ exit !($1 != $2) }' "$T/insp.images"
ok $? "tprof-inspect with TPROF_SAMPLE=sched: one system image, tprof-inspect's"
[ "$(wc -l <"$T/insp.images")" -eq 1 ] || diag "images: $(cat "$T/insp.images")"
env -u TPROF_SAMPLE "$INSPECT" -o "$T/plain" -- "$APPS/sysload" spawn 50 >/dev/null 2>&1
[ -z "$(find "$T/plain" -name '*.tpf')" ]
ok $? "tprof-inspect without --sample or TPROF_SAMPLE: no system image"

# Several system images of one host (tools/mk-sysimage): where they overlap in time, the one
# that covers the most draws the host-wide counters; an image after it draws its own, and so
# does another host's.
cat >"$T/many.txt" <<EOF
image system host=node1 pid=50 start=1ms end=1s target=50 ncpu=1
task seen t=2ms pid=50 tid=50 ppid=1 comm=app
sysctr t=100ms what=busy of=0 value=250000
sysctr t=100ms what=hostmem value=2000000000
sysctr t=100ms what=rss of=50 value=1000000
image system host=node1 pid=60 start=200ms end=500ms target=60 ncpu=1
task seen t=201ms pid=60 tid=60 ppid=50 comm=worker
sysctr t=300ms what=busy of=0 value=500000
sysctr t=300ms what=hostmem value=3000000000
sysctr t=300ms what=rss of=60 value=2000000
image system host=node1 pid=70 start=2s end=3s target=70 ncpu=1
sysctr t=2500ms what=busy of=0 value=750000
sysctr t=2500ms what=hostmem value=4000000000
image system host=node2 pid=80 start=200ms end=500ms target=80 ncpu=1
sysctr t=300ms what=busy of=0 value=1000000
sysctr t=300ms what=hostmem value=5000000000
EOF
"$top_builddir/tests/tools/mk-sysimage" "$T/many" <"$T/many.txt" &&
	"$ANALYZE" "$T/many" --summary=json >"$T/many.json" 2>"$T/many.err" &&
	"$PY" -B "$CHECKS" many-images "$T/many.json"
ok $? "several system images of a host: host-wide counters once where they overlap, RSS of each"
finish
