#!/bin/sh
# A program compiled by hipcc launches kernels on 2 devices x 2 streams from 2 host threads
# (the stand-in runs them for a configured time): every launch has exactly one device span,
# on the track of its device and stream, starting no earlier than the launch, in order
# within its stream, with a flow arrow from the launch; the spans last what the stand-in
# was told, within 5%; the summary counts them as kernels.  Then 800 short kernels (and 4
# copies) back to back: the recorder's DEVICE records of a stream never overlap (float
# milliseconds round the times of consecutive ones differently), nor do the Chrome trace's
# spans of a track, and no arrow ends before it starts.
. "$(dirname "$0")/lib.sh"
need_hip hip-multi
plan 14

# Kernels of milliseconds, each stream opened by a 300 ms "hold" kernel: the kernels after it
# are queued before their stream gets to them, so their start events are reached when the
# kernel before them ends, not when a (possibly descheduled) host thread launches them.  On
# an idle stream the span would also hold the time from the start event to the launch.
export STANDIN_HIP_KERNEL_US="scale_a:2000,shift_b:3000,hold:300000"
out="$T/out"
"$INSPECT" -o "$out" -- "$APPS/hip-multi" 5 hold >"$T/stdout" 2>"$T/stderr"
ok $? "the program runs under tprof-inspect against the stand-in"
check "its output is unchanged" grep -qx 'launches=24' "$T/stdout"
"$ANALYZE" "$out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"

# The launches and their device spans, matched by correlation id.
pycheck "24 launches, each with exactly one device span (and no span without a launch)" \
	one-span-each "$T/trace.json"
pycheck "each span is on the track of its launch's device and stream; 4 tracks, 2 launching \
threads" stream-tracks "$T/trace.json"
pycheck "no span starts before its launch" after-launch "$T/trace.json"
pycheck "within each stream the spans follow launch order and do not overlap" \
	launch-order "$T/trace.json"
pycheck "a flow arrow from each launch (bound inside the call) to its span" \
	launch-flows "$T/trace.json"
pycheck "span durations match the stand-in (2000 and 3000 us) within 5%" \
	span-durations "$T/trace.json"

"$ANALYZE" "$out" --summary >"$T/summary" 2>>"$T/analyze.err"
pycheck "the summary's kernel table counts 10 of each kernel, with their mean times" \
	summary-kernels "$T/summary"

# 200 kernels per stream, queued faster than they run: each starts when the one before ends,
# both times taken against the anchor through float milliseconds.
STANDIN_HIP_KERNEL_US="scale_a:20,shift_b:30" "$INSPECT" -o "$T/busy" -- "$APPS/hip-multi" 200 \
	>"$T/busy.out" 2>"$T/busy.err" && grep -qx 'launches=800' "$T/busy.out" && "$DUMP" "$T/busy" >"$T/busy.dump"
ok $? "800 short kernels back to back: recorded, and dump-records reads the profile"
pycheck "the recorder: on each stream, in the order written, no DEVICE record starts before \
the one before ends" device-records "$T/busy.dump"
"$ANALYZE" "$T/busy" --format chrome -o "$T/busy.json" 2>>"$T/analyze.err"
ok $? "tprof-analyze writes their Chrome trace"
pycheck "no two spans on one device track overlap; no arrow ends before it starts" \
	no-overlap "$T/busy.json"
finish
