#!/bin/sh
# No field of an imported trace drives memory beyond what the file's size justifies: traces of
# many distinct ids of one kind with the fewest bytes each (tools/mk-hostile-trace.py: threads,
# processes, names, args keys, counter series, flow and async ids left open, nesting, named
# threads) import to the summary and to Chrome JSON within 64 MiB + 4 x the file's size of
# peak RSS, under an address-space limit of 1 GiB that keeps a runaway from the machine.
# Nothing here is timed; a run that never ends is stopped after 10 minutes.  And an import of
# many processes is not a scratch file each (the file system's work then grows with them): 2,000
# processes import whole with the scratch directory on a tmpfs of 64 inodes.
. "$(dirname "$0")/lib.sh"
GEN="$top_srcdir/tests/tools/mk-hostile-trace.py"
# ASan's shadow memory is neither bounded nor the analyzer's own: in a sanitizer build each
# trace must import without a sanitizer report, and its memory is not measured.
san=${SANITIZERS:-no}
plan 19

# rss FILE ARGS...: runs the analyzer on FILE under the limit; prints its peak RSS in KiB, or
# fails saying why.
rss() { "$PY" -B "$CHECKS" peak-rss "$san" "$ANALYZE_ONLY" --import "$@"; }

# within RSS BOUND ERRFILE: the run ended well and, in a sanitizer build, reported nothing;
# else its peak RSS is within the bound.  said RSS BOUND: which, in words.
within() {
	[ -n "$1" ] || return 1
	if [ "$san" = yes ]; then ! grep -q "runtime error\|Sanitizer" "$3"; else [ "$1" -le "$2" ]; fi
}
said() {
	if [ "$san" = yes ]; then echo "imported, no sanitizer report"
	else echo "peak RSS ${1:-?} KiB within $2"; fi
}

for spec in tids:20000 pids:20000 names:40000 keys:40000 counters:40000 flows:20000 \
	asyncs:40000 depth:40000 named:40000; do
	kind=${spec%%:*}
	n=${spec#*:}
	f="$T/$kind.json"
	size=$("$PY" "$GEN" "$kind" "$n" "$f")
	bound=$((65536 + 4 * size / 1024))
	got=$(rss "$f" --summary 2>"$T/$kind.err")
	within "$got" "$bound" "$T/$kind.err"
	ok $? "$n $kind ($size bytes) to the summary: $(said "$got" "$bound")"
	[ -s "$T/$kind.err" ] && diag "$(tail -c 300 "$T/$kind.err")"
	got=$(rss "$f" -f chrome -o "$T/$kind.out.json" 2>"$T/$kind.err")
	within "$got" "$bound" "$T/$kind.err"
	ok $? "$n $kind to Chrome JSON: $(said "$got" "$bound")"
	[ -s "$T/$kind.err" ] && diag "$(tail -c 300 "$T/$kind.err")"
	rm -f "$f" "$T/$kind.out.json"
done

f="$T/few-inodes.json"
"$PY" "$GEN" pids 2000 "$f" >/dev/null
mkdir -p "$T/few"
if ! mount_ns; then
	skip "2,000 processes, 64 inodes: cannot make a mount namespace ($NS) for a small tmpfs"
else
	$NS sh -c 'mount -t tmpfs -o size=16m,nr_inodes=64,mode=0700 tmpfs "$1" || exit 90
		TMPDIR="$1" "$2" --import "$3" --summary' sh "$T/few" "$ANALYZE_ONLY" "$f" \
		>"$T/few.out" 2>"$T/few.err"
	rc=$?
	head -3 "$T/few.out" | grep -q "processes: *2000 .*events: 2,000$" && [ $rc -eq 0 ] &&
		[ ! -s "$T/few.err" ]
	ok $? "2,000 processes imported with 64 inodes for the scratch directory (status $rc)"
	[ -s "$T/few.err" ] && diag "$(tail -c 300 "$T/few.err")"
	grep -q "processes:" "$T/few.out" && diag "$(grep "processes:" "$T/few.out")"
fi
finish
