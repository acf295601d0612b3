#!/bin/sh
# Device spans put in order by tprof-analyze, on the trace of one synthetic process written
# by apps/dev-synth (kernels whose measured times overlap on their stream by rounding and by
# more, start before their launch, or were launched by two threads racing to a stream in the
# other order than they ran; see the program): every output (Chrome, OTF2, the summary) gets
# each span where it belongs — no earlier than its launch and the end of the span before it
# on its stream, in the order one thread launched them, its duration kept, spans of other
# streams left alone — and no arrow ends before it starts (those between NCCL ranks
# whose clocks disagree are left out and counted); moves beyond 1 us (the timing's
# resolution) are counted, and -v and the summary say how many and the largest.
. "$(dirname "$0")/lib.sh"
SYNTH="$APPS/dev-synth"
[ -x "$SYNTH" ] || skip_all "apps/dev-synth was not built"
plan 9

"$SYNTH" "$T/p"
ok $? "the synthetic trace is written"
"$ANALYZE" "$T/p" -f chrome -o "$T/t.json" -v 2>"$T/err.txt"
ok $? "tprof-analyze -v writes the Chrome trace"

# Where each kernel belongs, in the trace's ticks (k1's launch enters at 10000).
WANT='{"k1": [20000, 30000], "k2": [30000, 40400], "k3": [40400, 53000], "k4": [100000, 110000],
"k5": [25000, 35000], "k6": [230000, 240000], "k7": [210000, 220000], "k8": [310000, 320000],
"k9": [400000, 400000], "k10": [520000, 530000], "k11": [530000, 540000]}'
pycheck "Chrome: every span where it belongs; none overlaps another on its track; every arrow \
goes forward" chrome-spans "$T/t.json" "$WANT"
check "-v: the two arrows between NCCL ranks that would go back are left out and counted" \
	grep -q "NCCL: 2 arrows between ranks not drawn: each would end before it starts" "$T/err.txt"

check "-v: two spans moved after the one before them on their stream by more than 1 us, the largest by 25 us" \
	grep -q "device spans: 2 moved later by more than 1 us (largest 25.000 us) so as not to overlap the span before them on their stream; durations kept" "$T/err.txt"
check "-v: two spans moved to their launch by more than 1 us, the largest by 5 us" \
	grep -q "device spans: 2 moved later by more than 1 us (largest 5.000 us) so as not to start before the call that launched them; durations kept" "$T/err.txt"

"$ANALYZE" "$T/p" -s >"$T/sum.txt" 2>/dev/null
check "the summary says so too" grep -q "adjusted:    device spans moved later by more than 1 us, durations kept:  \[overlapping the span before on their stream: 2, largest 25.000 us\]  \[starting before their launch: 2, largest 5.000 us\]" "$T/sum.txt"

"$ANALYZE" "$T/p" -f chrome -o "$T/dom.json" --group-by domain 2>/dev/null &&
	"$PY" -B "$CHECKS" domain-spans "$T/dom.json"
ok $? "--group-by domain: the same"

if [ "${OTF2_PRINT:-no}" != no ] && [ -x "${OTF2_PRINT:-}" ]; then
	. "$(dirname "$0")/lib-otf2.sh"
	"$ANALYZE" "$T/p" -f otf2 -o "$T/otf2" 2>/dev/null && otf2_print "$T/otf2/traces.otf2" "$T/otf2.txt" &&
		"$PY" -B "$CHECKS" otf2-regions "$T/otf2.txt" "$WANT"
	ok $? "OTF2: every device region at the same times"
else
	skip "otf2-print not found (configure looks for it)"
fi
finish
