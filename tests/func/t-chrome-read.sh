#!/bin/sh
# The Chrome JSON import reader end to end: what tools/chrome-count reads in traces of every
# kind from tools/mk-chrome-trace is what the generator wrote and what python3's json reads,
# event by event (tools/chrome-check.py); damage, a cut, 10^6 gzipped events in bounded memory.
. "$(dirname "$0")/lib.sh"
[ -x "$(command -v "$PY")" ] || skip_all "no python3"
GEN="$top_builddir/tests/tools/mk-chrome-trace"
COUNT="$top_builddir/tests/tools/chrome-count"
CHECK="$top_srcdir/tests/tools/chrome-check.py"
plan 45

# What the generator prints, taken from chrome-count's output: the lines they share.
shared() { grep -E '^(events|ph|ts_sum|dur_sum|ids) ' "$1"; }
# chrome-count's output without what python cannot know.
readable() { grep -vE '^(skipped|bytes|maxrss_kb) ' "$1"; }

# kind NAME OPTIONS...: one generated file, read and checked three ways.
kind() {
	_name=$1
	shift
	"$GEN" -n 20000 -s "$tap_n" "$@" -o "$T/$_name.json" >"$T/$_name.gen" || return 1
	"$COUNT" -e "$T/$_name.json" >"$T/$_name.out" 2>"$T/$_name.err"
	ok $? "$_name: read to the end"
	shared "$T/$_name.out" | diff - "$T/$_name.gen" >&2
	ok $? "$_name: the events the generator wrote (counts, exact time sums, ids)"
	if grep -q '^skipped 0$' "$T/$_name.out" && [ ! -s "$T/$_name.err" ]; then
		ok 0 "$_name: nothing skipped, nothing said"
	else
		ok 1 "$_name: nothing skipped, nothing said"
		cat "$T/$_name.err" >&2
	fi
	"$PY" "$CHECK" -e "$T/$_name.json" >"$T/$_name.py" &&
		readable "$T/$_name.out" | diff - "$T/$_name.py" >"$T/$_name.diff"
	ok $? "$_name: what python3's json reads, event by event"
	head -5 "$T/$_name.diff" >&2
}

kind object
kind array -a
kind object-gz -z
kind array-gz-epoch -a -z -e
kind object-epoch -e
kind array-open -a -c
kind array-open-gz-epoch -a -z -c -e
kind bare-object -M

# Blocks of 1000 bytes: every boundary somewhere else; the same reading.
"$COUNT" -e -b 1000 "$T/object-gz.json" | diff - "$T/object-gz.out" >/dev/null
ok $? "blocks of 1000 bytes: the same events and meta"

# An object cut between two events: every event read, one warning.
"$GEN" -n 5000 -c -o "$T/cut.json" >"$T/cut.gen"
"$COUNT" "$T/cut.json" >"$T/cut.out" 2>"$T/cut.err"
ok $? "an object without its closing brackets: read"
shared "$T/cut.out" | diff - "$T/cut.gen" >&2
ok $? "... every event in it"
grep -q "warning: .*cut.json: offset [0-9]*: the input ends inside traceEvents" "$T/cut.err"
ok $? "... and a warning that says where it ends"

# A damaged event in the middle: skipped, named with its offset; every other event read.
awk 'NR == 100 { sub(/"ts":/, "\"ts\":x") } { print }' "$T/array.json" >"$T/damaged.json"
at=$(awk 'NR < 100 { n += length($0) + 1 } END { print n }' "$T/array.json")
"$COUNT" "$T/damaged.json" >"$T/damaged.out" 2>"$T/damaged.err"
ok $? "a damaged event: the file is read"
grep -q '^skipped 1$' "$T/damaged.out" && grep -q '^events 19999$' "$T/damaged.out"
ok $? "... that event skipped, the 19999 others read"
grep -q "warning: .*damaged.json: offset $at: event skipped: bad JSON" "$T/damaged.err"
ok $? "... and named with its offset ($at)"

# A file cut inside an event: an error with the event's offset, every event before it read.
"$PY" -B "$CHECKS" cut-inside-event "$T/object.json" "$T/halved.json" >"$T/halved.want"
read -r before cut_at <"$T/halved.want"
"$COUNT" "$T/halved.json" >"$T/halved.out" 2>"$T/halved.err"
[ $? -eq 1 ]
ok $? "a file cut inside an event: an error"
grep -q "^events $before\$" "$T/halved.out"
ok $? "... after the $before events before it"
grep -q "halved.json: offset $cut_at: the input ends inside the event" "$T/halved.err"
ok $? "... named with the event's offset ($cut_at)"

# 10^6 events, gzip, epoch times: what the generator wrote, in bounded memory (under the
# sanitizers, whose shadow and quarantine count in the RSS, twice the bound: 12.4 MiB measured).
"$GEN" -n 1000000 -z -e -o "$T/million.json" >"$T/million.gen"
"$COUNT" -r "$T/million.json" >"$T/million.out" 2>"$T/million.err"
ok $? "10^6 events, gzip: read"
shared "$T/million.out" | diff - "$T/million.gen" >&2
ok $? "... every event the generator wrote"
rss=$(sed -n 's/^maxrss_kb //p' "$T/million.out")
bound=32768
[ "${SANITIZERS:-no}" = yes ] && bound=65536
[ "$rss" -lt "$bound" ]
ok $? "... in $rss KiB at most (a 1 MiB block, the largest event: under $((bound / 1024)) MiB)"
finish
