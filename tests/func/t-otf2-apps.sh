#!/bin/sh
# tprof-analyze --format otf2 on real traces: the test programs run under tprof-inspect
# (threads, steps, hostile names, fork and exec, roctx ranges across threads, HIP kernels
# and copies on the stand-in runtime).  otf2-print must read each archive without a word of
# complaint; every location must be properly nested and in time order; and the archive
# must hold what the Chrome trace of the same run holds: one region per span or mark, one
# metric sample per counter sample, one location group per process; the device work of a
# stream one region after the other, at the times Chrome has.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
plan 18

# app NAME COMMAND...: records COMMAND, writes both traces, compares them (two results).
app() {
	_n=$1
	shift
	"$INSPECT" -o "$T/$_n" -- "$@" >"$T/$_n.out" 2>"$T/$_n.err" &&
		"$ANALYZE" "$T/$_n" --format chrome -o "$T/$_n.json" 2>>"$T/$_n.err" &&
		"$ANALYZE" "$T/$_n" --format otf2 -o "$T/$_n.otf2" 2>>"$T/$_n.err" &&
		otf2_print "$T/$_n.otf2/traces.otf2" "$T/$_n.txt"
	ok $? "$_n: recorded; otf2-print reads the archive without complaint"
	pycheck "$_n: nested, in time order, and the same regions, samples and processes as Chrome" \
		same-as-chrome "$T/$_n.txt" "$T/$_n.json"
}

app threads "$APPS/threads" 8 300
app steps "$APPS/steps" 2 open
app names "$APPS/names"
app fork-exec "$APPS/forkexec" fork-exec 50
app exec "$APPS/forkexec" exec 50

if [ -x "$APPS/roctx-ranges" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" app roctx "$APPS/roctx-ranges"
else
	skip "roctx-ranges was not built"
	skip "roctx-ranges was not built"
fi

if [ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ] && [ -x "$APPS/hip-multi" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		STANDIN_HIP_KERNEL_US="scale_a:200,shift_b:300" app hip-multi "$APPS/hip-multi" 5
	pycheck "hip-multi: 2 devices x 2 streams as accelerator streams, 20 kernels, launches with "\
"their correlation ids" \
		hip-multi-streams "$T/hip-multi.txt"
	# Kernels back to back: consecutive ones meet, to the rounding of their times.
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		STANDIN_HIP_KERNEL_US="scale_a:20,shift_b:30" app hip-busy "$APPS/hip-multi" 200
	pycheck_in lib-otf2 "800 kernels back to back: on each stream one after the other, at the "\
"times of the Chrome trace" \
		device-spans-match "$T/hip-busy.txt" "$T/hip-busy.json"
else
	for i in 1 2 3 4 5 6; do
		skip "no stand-in HIP runtime or hip-multi (configure found no HIP headers or hipcc)"
	done
fi
finish
