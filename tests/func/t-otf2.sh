#!/bin/sh
# tprof-analyze --format otf2 on a synthetic MPI job (tests/unit/test-mpi-trace.c: 4 ranks on
# two hosts, 20 messages a round in every form MPI has: blocking, sendrecv, nonblocking,
# persistent, plus collectives, a cancelled receive, a send to MPI_PROC_NULL, HIP calls and
# device work, ranges, marks, counters, steps; then one message per rank on a communicator
# the trace does not describe).  otf2-print must read the archive without a word of
# complaint; the MPI records, their definitions and the nesting of every location are
# checked against what the job did; with /usr/bin/python3's otf2 module every message is
# matched with its receive.  Then windows, and the errors of -o and of writing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
plan 26

GEN="$top_builddir/tests/unit/test-mpi-trace"
mkdir "$T/job" && "$GEN" "$T/job" 3
ok $? "a synthetic trace of 4 ranks, 3 rounds"

"$ANALYZE" "$T/job" --format otf2 -o "$T/a" 2>"$T/a.err"
ok $? "tprof-analyze --format otf2 succeeds"
grep -q "warning: OTF2: 8 MPI records left out: their communicator is not described" "$T/a.err" &&
	! grep -q "never seen posted" "$T/a.err"
ok $? "the message on a communicator the trace does not describe is left out, with a warning"
grep -q "OTF2 archive written to $T/a/traces.otf2" "$T/a.err" && [ -f "$T/a/traces.otf2" ]
ok $? "it says where the anchor file is, and it is there"
otf2_print "$T/a/traces.otf2" "$T/a.txt"
ok $? "otf2-print reads events and definitions without an error or a warning"
[ -s "$T/a.txt.err" ] && diag "$(cat "$T/a.txt.err")"

# A location's records are kept back until it is worth a writer, or until the records kept
# pass a cap (then the locations keeping the most get theirs): the archive is the same
# whichever way each location went (cap 0: all at once; 1 KiB: by the cap, over and over).
for kb in 0 1; do
	TPROF_TEST_OTF2_KEPT_KB=$kb "$ANALYZE" "$T/job" --format otf2 -o "$T/k$kb" 2>/dev/null &&
		otf2_print "$T/k$kb/traces.otf2" "$T/k$kb.txt" && cmp "$T/a.txt" "$T/k$kb.txt" &&
		cmp "$T/a.txt.defs" "$T/k$kb.txt.defs"
	ok $? "the same archive with TPROF_TEST_OTF2_KEPT_KB=$kb"
done

pycheck "MPI records: as many of each kind as the job made" record-counts "$T/a.txt"
pycheck "send and receive records each equal the job's 60 messages" messages "$T/a.txt"
pycheck_in lib-otf2 \
	"every location: times never go back, every Enter has its Leave, properly nested" \
	nested-in-order "$T/a.txt"

pycheck "MPI records sit inside the calls they belong to" inside-calls "$T/a.txt"

# Definitions: clock, processes in rank order, communicators, the rank list.
pycheck "clock properties: nanoseconds, offset at the trace start on the realtime axis" \
	clock "$T/a.txt.defs"
pycheck "one location group per process, ranks in order, id = rank, named as in Chrome" \
	process-groups "$T/a.txt.defs"
pycheck "MPI: a location per world rank (its main thread), WORLD, SELF and the split's two halves" \
	communicators "$T/a.txt.defs"
pycheck "device streams in accelerator groups; kernels, copies, marks, steps, ranges as regions" \
	device-regions "$T/a.txt.defs" "$T/a.txt"
pycheck "a call that never returned and a range never closed end with their process, nested" \
	never-closed "$T/a.txt"

# A deeper look with the otf2 Python module of Debian's own interpreter, where it is.
if [ "${SYSTEM_PYTHON3:-no}" != no ] &&
	"$SYSTEM_PYTHON3" -B "$CHECKS" has-otf2-module 2>/dev/null; then
	check "otf2 module: every send has its receive (communicator, ends, tag, size), every "\
"request completes" "$SYSTEM_PYTHON3" -B "$CHECKS" module-matches "$T/a/traces.otf2"
else
	skip "no otf2 module for /usr/bin/python3 (Debian: python3-otf2)"
fi

# Windows: ranges begun before the window are entered at its start, only if they reach it.
"$ANALYZE" "$T/job" --format otf2 -o "$T/w" --start 101.2 --end 201.1 2>"$T/w.err" &&
	otf2_print "$T/w/traces.otf2" "$T/w.txt"
ok $? "--start/--end: the archive reads without complaint"
pycheck "--start/--end: one round's records, all within the window, nested" window "$T/w.txt"
"$ANALYZE" "$T/job" --format otf2 -o "$T/s" --steps 2 2>"$T/s.err" &&
	otf2_print "$T/s/traces.otf2" "$T/s.txt" &&
	"$PY" -B "$CHECKS" step-2 "$T/s.txt"
ok $? "--steps 2: step 2 of each rank (and what overlaps it), nested, readable"

# -o: required, a directory, new or empty; nothing of the user's is touched.
"$ANALYZE" "$T/job" --format otf2 >/dev/null 2>"$T/e1.err"
[ $? -eq 2 ] && grep -q "needs -o DIR" "$T/e1.err"
ok $? "--format otf2 without -o: a usage error"
mkdir "$T/full" && echo keep >"$T/full/mine.txt"
"$ANALYZE" "$T/job" --format otf2 -o "$T/full" >/dev/null 2>"$T/e2.err"
[ $? -ne 0 ] && grep -q "not empty" "$T/e2.err" && [ "$(cat "$T/full/mine.txt")" = keep ] &&
	[ "$(ls "$T/full")" = mine.txt ]
ok $? "a directory that is not empty is refused and left as it was"
echo data >"$T/file"
"$ANALYZE" "$T/job" --format otf2 -o "$T/file" >/dev/null 2>"$T/e3.err"
[ $? -ne 0 ] && grep -q "not a directory" "$T/e3.err" && [ "$(cat "$T/file")" = data ]
ok $? "a file is refused and left as it was"
mkdir "$T/empty" && "$ANALYZE" "$T/job" --format otf2 -o "$T/empty" 2>/dev/null &&
	otf2_print "$T/empty/traces.otf2" "$T/empty.txt"
ok $? "an empty directory takes the archive"
"$ANALYZE" "$T/job" --format otf2 -o - >/dev/null 2>"$T/e4.err"
[ $? -eq 2 ] && grep -q "'-o -' is not possible" "$T/e4.err"
ok $? "'-o -' is a usage error for otf2"
# A write that fails (here: past a file size limit) is an error that says so.
mkdir "$T/long" && "$GEN" "$T/long" 3000 &&
	(ulimit -f 1000 && trap '' XFSZ && "$ANALYZE" "$T/long" --format otf2 -o "$T/lim") \
		>/dev/null 2>"$T/e5.err"
[ $? -eq 1 ] && grep -q "File is too large (POSIX: $T/lim.tprof-tmp-[0-9a-f-]*[A-Za-z0-9]*/traces/" \
	"$T/e5.err" && grep -q "the OTF2 archive is incomplete: $T/lim was not written" "$T/e5.err" &&
	[ ! -e "$T/lim" ] && [ -z "$(ls "$T" | grep "^lim")" ]
ok $? "a failed write: exit status 1, the file named, the archive said to be incomplete and removed"
finish
