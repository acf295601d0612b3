#!/bin/sh
# The device clock anchor on a slow host: unit/test-devtime-anchor times one operation with
# a fake runtime whose anchor events are recorded, or seen done, late by a script (see the
# program).  Whatever the scenario, the DEVICE record must put the operation where its events
# really were, to within 1 ms, while the stalls are 4 to 8 ms: a clock pinned by one try's
# bracket alone would be off by 2 ms or more in the mixed one.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-devtime-anchor"
[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
plan 8

for sc in prompt seen mixed slow; do
	"$bin" "$T/$sc" "$sc" >"$T/$sc.truth" 2>"$T/$sc.err" && "$DUMP" "$T/$sc" >"$T/$sc.json" 2>>"$T/$sc.err"
	ok $? "$sc: the operation is timed and dump-records reads the profile"
	pycheck "$sc: the DEVICE record is where the operation's events were, to within 1 ms" \
		where-events-were "$T/$sc.json" "$T/$sc.truth" "$sc"
done
finish
