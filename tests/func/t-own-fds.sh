#!/bin/sh
# The program's descriptors and errno are its own (apps/fds.c).  A program that takes back
# every descriptor above 2 (a close() loop, close_range, closefrom, dup2 onto each, libc's
# syscall(), raw system calls no hook sees) and then writes files of its own keeps them intact,
# and the profile is complete: every mark, nothing dropped, not one warning.  A program started
# with stdout closed keeps it closed (its first open() gets 1; nothing of it reaches a .tpf).
# errno is unchanged by the recorder's first records, its hooks and its handlers of fork and
# exit; the first open() after the first record returns 3.  Each under TPROF_ENABLE alone and
# under tprof-inspect, with and without the program's own system profile (TPROF_SAMPLE=all).
. "$(dirname "$0")/lib.sh"

MODES="closeloop closerange closefrom dup2 syscall raw stdout"
VARIANTS="env env-sample inspect inspect-sample"
plan $((7 * 4 * 2 + 1 + 1 + 4 * 2 + 4 + 4 + 2))

# run VARIANT OUTDIR ARGS...: the program under the recorder, stderr in $T/err.
run() {
	_v=$1 _o=$2
	shift 2
	case $_v in
	env) TPROF_BUFFER_KB=16 record_env "$_o" "$@" ;;
	env-sample) TPROF_SAMPLE=all TPROF_BUFFER_KB=16 record_env "$_o" "$@" ;;
	inspect) "$INSPECT" -o "$_o" --buffer-kb 16 -- "$@" ;;
	inspect-sample) "$INSPECT" -o "$_o" --buffer-kb 16 --sample all -- "$@" ;;
	esac
}

# marks OUTDIR: the number of "fds" marks in the profile, and its drop count, as "N dropped D".
marks() {
	"$ANALYZE" "$1" --format chrome -o "$T/m.json" 2>"$T/m.err" &&
		"$ANALYZE" "$1" --summary >"$T/m.sum" 2>>"$T/m.err" || { echo "analyzer failed"; return; }
	"$PY" -B "$CHECKS" fds-marks "$T/m.json"
	sed -n 's/^ *dropped: *\([0-9,]*\).*/dropped \1/p' "$T/m.sum"
}

for v in $VARIANTS; do
	for m in $MODES; do
		out="$T/$v-$m" own="$T/$v-$m-own"
		mkdir -p "$own"
		if [ "$m" = stdout ]; then
			run "$v" "$out" "$APPS/fds" "$m" "$own" >&- 2>"$T/err"
		else
			run "$v" "$out" "$APPS/fds" "$m" "$own" >"$T/out" 2>"$T/err"
		fi
		rc=$?
		[ "$rc" -eq 0 ] && grep -q "^fds $m: ok marks=30001$" "$T/err"
		ok $? "$v, $m: the program's own files are intact (status $rc)"
		[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
		got=$(marks "$out")
		leaked=$(grep -l PROGRAM-OUTPUT "$out"/* 2>/dev/null)
		n=$(recorder_lines "$T/err")
		[ "$got" = "30001 dropped 0" ] && [ "$n" -eq 0 ] && [ -z "$leaked" ]
		ok $? "$v, $m: the profile holds all 30001 marks, none dropped, no warning (got: $got; $n recorder lines${leaked:+; program output in $leaked})"
		[ "$n" -eq 0 ] || diag "$(grep '^tprof\[' "$T/err")"
	done
done

# A descriptor taken by raw system calls and the recorder's files replaced by links: no link
# is followed (the program's file stays as it was), and recording stops with one warning,
# about the chunk file or the spool, whichever the recorder writes first.
out="$T/rawlink" own="$T/rawlink-own"
mkdir -p "$own"
TPROF_BUFFER_KB=16 record_env "$out" "$APPS/fds" rawlink "$own" >"$T/out" 2>"$T/err"
rc=$?
n=$(recorder_lines "$T/err")
[ "$rc" -eq 0 ] && grep -q "^fds rawlink: ok" "$T/err" && [ "$n" -eq 1 ] &&
	grep -q "^tprof\[[0-9]*\]: warning: cannot \(write .*\.tpf\|extend .*\.spool\): its descriptor was taken and it cannot be reopened: Too many levels of symbolic links; recording stopped" "$T/err"
r=$?
ok $r "a file of the recorder replaced by a link: not followed, the program's file intact, one warning (status $rc, $n recorder lines)"
[ $r -eq 0 ] || diag "$(cat "$T/err")"

# errno: the stand-in HIP runtimes with event functions (device timing) and without.
hip_ev="$top_builddir/tests/apps/minimal-ev/.libs/libamdhip64.so.5"
hip_min="$top_builddir/tests/apps/minimal/.libs/libamdhip64.so.5"
"$APPS/fds" errno "$T" "$hip_ev" 2>"$T/err"
ok $? "errno: the program alone keeps its errno (the checks hold without the recorder)"
for v in $VARIANTS; do
	for lib in "$hip_ev" "$hip_min"; do
		run "$v" "$T/errno-$v-$(basename "$(dirname "$(dirname "$lib")")")" "$APPS/fds" errno "$T" "$lib" \
			>"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" -eq 0 ] && grep -q "^fds errno: ok$" "$T/err" && [ "$(recorder_lines "$T/err")" -eq 0 ]
		ok $? "$v: errno unchanged by first records, hooks, fork and exit ($(basename "$(dirname "$(dirname "$lib")")") HIP; status $rc)"
		[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
	done
done

for v in $VARIANTS; do
	run "$v" "$T/first-$v" "$APPS/fds" firstopen "$T" >"$T/out" 2>"$T/err"
	rc=$?
	# 3 when run alone; make may pass descriptors of its own.
	[ "$rc" -eq 0 ] && grep -q "^fds firstopen: ok fd=[0-9]*$" "$T/err"
	ok $? "$v: the first open() after the first record gets the lowest number, as without the recorder ($(sed -n 's/^fds firstopen: //p' "$T/err"); status $rc)"
	[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
done

# The program's own system profile at 1 kHz, threads coming and going (a file to read for
# each): the sampler's opens never take a number the program's open() would have had, with
# stdout open (3) or closed (1).
for v in env-sample inspect-sample; do
	for out in open closed; do
		if [ $out = open ]; then
			TPROF_SAMPLE_HZ=1000 run "$v" "$T/low-$v-$out" "$APPS/fds" lowest "$T" >"$T/out" 2>"$T/err"
		else
			TPROF_SAMPLE_HZ=1000 run "$v" "$T/low-$v-$out" "$APPS/fds" lowest "$T" >&- 2>"$T/err"
		fi
		rc=$?
		[ "$rc" -eq 0 ] && grep -q "^fds lowest: ok fd=[0-9]* opens=[0-9]*$" "$T/err" &&
			[ "$(recorder_lines "$T/err")" -eq 0 ]
		ok $? "$v, stdout $out: for a second of threads coming and going, every open() gets the lowest number ($(sed -n 's/^fds lowest: //p' "$T/err"); status $rc)"
		[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
	done
done

# With call stacks, libunwind's pipe (made at load) is the recorder's too.
TPROF_CALLSTACK=1 record_env "$T/first-stack" "$APPS/fds" firstopen "$T" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && grep -q "^fds firstopen: ok fd=[0-9]*$" "$T/err"
ok $? "TPROF_CALLSTACK=1: the first open() gets the lowest number ($(sed -n 's/^fds firstopen: //p' "$T/err"); status $rc)"
[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"

# Where the recorder's descriptors are, seen from outside while it records: close-on-exec,
# none of 0-2, and above the small numbers that stay the program's.
TPROF_BUFFER_KB=16 TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/where" LD_PRELOAD="$PRELOAD_ENV" \
	"$APPS/marks" 1 400000000 >/dev/null 2>"$T/err" &
pid=$!
i=0
while [ "$i" -lt 200 ] && ! ls "$T/where"/*.spool >/dev/null 2>&1; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.2
for f in /proc/$pid/fd/*; do
	case $(readlink "$f") in
	"$T/where"/*) echo "${f##*/} $(sed -n 's/^flags:[[:space:]]*//p' "/proc/$pid/fdinfo/${f##*/}")" ;;
	esac
done >"$T/fds-list"
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
pycheck "the recorder's descriptors are close-on-exec and above the program's "\
"($(tr '\n' ' ' <"$T/fds-list"))" \
	recorder-fds "$T/fds-list"
finish
