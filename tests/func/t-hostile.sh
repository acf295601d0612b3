#!/bin/sh
# Hostile and damaged profiles: fields that claim far more than their bytes hold (a string id
# of 0xffffffff, communicators of 2^24 members, a rank of 2^40, a world of 2^24 - 1 ranks,
# stream, range and call ids by the thousand, names no record defines) cost memory and time in
# proportion to the input: each is read to a summary, a Chrome trace and an OTF2 archive within
# 64 MiB + 4 x the input's size (peak RSS; not checked in a sanitizer build, whose shadow
# memory is its own).  A spool of 100,000 damaged buffers and a hole of 1 TiB gives one warning
# line with the count, and the buffer after the hole is read.  Times at the ends of their range
# convert to every format (in a sanitizer build: without undefined behaviour, which aborts),
# and a kernel that ran before everything else of its trace leaves a whole OTF2 archive.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"

MK="$top_builddir/tests/tools/mk-hostile"
# CASE:N:FORMATS.  (An OTF2 archive holds a location per stream: 20,000 of them, each of one
# mark, each with two files.  libotf2 buffers each file in 4 MiB it allocates and frees, and a
# sanitizer build writes 512 KiB of shadow memory for each: there 2,000 streams go to OTF2.)
streams="streams:20000:summary+chrome+perfetto+otf2"
[ "${SANITIZERS:-no}" = yes ] && streams="streams:20000:summary+chrome+perfetto streams:2000:otf2"
CASES="string-id:1:all comms:40:all comm-first:40:all rank:1:all world-size:2000:all
$streams asyncs:20000:all open-calls:20000:all deep:20000:all unknown-names:20000:all"
# Peak memory is measured in the plain build (a sanitizer build's shadow memory is its own:
# a case's second point and the spool's are left out there); undefined behaviour is caught in
# a sanitizer build (one point there).
ncases=$(echo $CASES | wc -w)
if [ "${SANITIZERS:-no}" = yes ]; then
	plan $((ncases + 15))
else
	plan $((2 * ncases + 15))
fi

# bounded DIR ANALYZE OUT FORMAT...: the analyzer ANALYZE on DIR once per format, each within a
# hang guard; prints "status peak-KiB input-bytes" (tools/checks/hostile.py).
bounded() { "$PY" -B "$CHECKS" bounded "$@"; }
for c in $CASES; do
	name=${c%%:*}
	n=${c#*:}
	formats=${n#*:}
	n=${n%%:*}
	[ "$formats" = all ] && formats=summary+chrome+otf2
	rm -rf "$T/$name"
	"$MK" "$name" "$T/$name" "$n" >/dev/null
	mkdir "$T/$name.out"
	set -- $(bounded "$T/$name" "$ANALYZE_ONLY" "$T/$name.out" $(echo $formats | tr + ' ') \
		2>"$T/$name.err")
	[ "$1" = 0 ]
	ok $? "$name $n: read to $formats (status $1)"
	[ "$1" = 0 ] || diag "$(tail -5 "$T/$name.err")"
	if [ "${SANITIZERS:-no}" != yes ]; then
		limit=$((64 * 1024 + 4 * $3 / 1024))
		[ "$2" -le "$limit" ]
		ok $? "$name $n: peak $2 KiB for $3 bytes of input (at most $limit KiB)"
	fi
	rm -rf "$T/$name.out"
done

# The summary says what a hostile field cost: the string no record defines, the members a
# communicator claims and does not list, the ranges and calls left open.
"$ANALYZE" "$T/string-id" --summary >"$T/sid.sum" 2>"$T/sid.err"
grep -q "events: *1$" "$T/sid.sum"
ok $? "the mark named by string 0xffffffff is read"
"$ANALYZE" "$T/world-size" --format chrome -o "$T/ws.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" barriers-2000 "$T/ws.json"
ok $? "a world of 2^24 - 1 ranks: the 2000 collectives of its one rank are there"

# A spool of 100,000 damaged buffers, a hole of 1 TiB, then a good buffer.
"$MK" spool-damage "$T/sp" 100000 >/dev/null
spool=$(ls "$T/sp"/*.spool)
"$ANALYZE" "$T/sp" --format chrome -o "$T/sp.json" >/dev/null 2>"$T/sp.err"
ok $? "a spool of 100,000 damaged buffers and a hole of 1 TiB is read"
[ "$(grep -c "$spool" "$T/sp.err")" -eq 1 ]
ok $? "one warning line for the spool ($(wc -l <"$T/sp.err") lines in all)"
diag "$(head -3 "$T/sp.err")"
grep -q "^tprof-analyze: warning: $spool.*100000 buffers with a damaged header; skipped" "$T/sp.err"
ok $? "it counts the 100,000 damaged buffers"
"$PY" -B "$CHECKS" marks-3 "$T/sp.json"
ok $? "the 3 marks of the buffer after the hole are read"
mkdir "$T/sp.out"
set -- $(bounded "$T/sp" "$ANALYZE_ONLY" "$T/sp.out" summary 2>/dev/null)
if [ "${SANITIZERS:-no}" != yes ]; then
	limit=$((64 * 1024 + 4 * $3 / 1024))
	[ "$1" = 0 ] && [ "$2" -le "$limit" ]
	ok $? "the spool: peak $2 KiB for $3 bytes written (at most $limit KiB)"
fi

# Times at INT64_MIN, INT64_MAX, 0 and UINT64_MAX in ticks, clock samples, clock
# synchronisation and device records, to every format.
"$MK" times "$T/times" >/dev/null
"$ANALYZE" "$T/times" --summary >"$T/times.sum" 2>"$T/times.err"
ok $? "extreme times: the summary is written"
"$ANALYZE" "$T/times" --summary --summary-format json 2>>"$T/times.err" |
	"$PY" -B "$CHECKS" json-valid
ok $? "extreme times: the JSON summary is written and valid"
"$ANALYZE" "$T/times" --format chrome -o "$T/times.json" 2>>"$T/times.err" &&
	"$PY" -B "$CHECKS" chrome-valid "$T/times.json"
ok $? "extreme times: the Chrome trace is written and valid"
"$ANALYZE" "$T/times" --format perfetto -o "$T/times.pftrace" 2>>"$T/times.err" && [ -s "$T/times.pftrace" ]
ok $? "extreme times: the Perfetto trace is written"
"$ANALYZE" "$T/times" --format sqlite -o "$T/times.db" 2>>"$T/times.err" &&
	sqlite3 "$T/times.db" 'select count(*) from sqlite_master' >/dev/null
ok $? "extreme times: the SQLite database is written and opens"
"$ANALYZE" "$T/times" --format otf2 -o "$T/times-otf2" 2>>"$T/times.err" &&
	otf2_print "$T/times-otf2/traces.otf2" "$T/times.print"
ok $? "extreme times: the OTF2 archive is whole (otf2-print reads it without a warning)"
if [ "${SANITIZERS:-no}" = yes ]; then
	! grep -q "runtime error" "$T/times.err"
	ok $? "no undefined behaviour reported"
fi

# A kernel that ran before anything else of its trace (as its device record says).
"$MK" early "$T/early" >/dev/null
"$ANALYZE" "$T/early" --format otf2 -o "$T/early-otf2" 2>"$T/early.err" &&
	otf2_print "$T/early-otf2/traces.otf2" "$T/early.print"
ok $? "an event before the trace's start: the OTF2 archive is whole"
grep -q "kernel" "$T/early.print"
ok $? "and the kernel is in it"
finish
