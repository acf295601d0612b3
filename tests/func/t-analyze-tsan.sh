#!/bin/sh
# tprof-analyze under ThreadSanitizer: the import's reader, its runs and image writers, and the
# merge that reads the streams ahead of the pipeline (forced on), each on a thread of its own.  A recorded
# profile with a framework trace in it, and an imported trace large enough to go round the
# merge's batches many times, to every format: the same output as the plain build, no report.
# Two analysis processes under mpirun splitting a generated job by steps, whose parts are put
# aside and taken up again (their files, buffers and compressor threads let go and made
# anew): the same parts and index as the plain build, no report.
. "$(dirname "$0")/lib.sh"
# the merge on its thread from the first record, whatever the output
export TPROF_TEST_MERGE_AHEAD=1
bin="$top_builddir/analyze/tprof-analyze-tsan"
GEN="$top_builddir/tests/tools/mk-chrome-trace"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
plan 20

"$INSPECT" -o "$T/prof" -- "$APPS/imp-writer" "$T/prof/w.pt.trace.json" base 6 3 \
	>"$T/prof.out" 2>&1
ok $? "imp-writer under tprof-inspect writes a profile with its trace in it"
tsan "a profile with a framework trace in it, --summary" "$bin" "$T/prof" --summary
"$ANALYZE" "$T/prof" --summary >"$T/plain.txt" 2>/dev/null
check "the same summary as the plain build" cmp -s "$T/stdout" "$T/plain.txt"

"$GEN" -n 200000 -e -o "$T/big.json" >/dev/null
ok $? "mk-chrome-trace writes 200000 events of every phase"
# runs of 1 MiB: many of them written on the spill thread and merged back
TPROF_TEST_IMPORT_RUN_KB=1024 tsan "the import to --summary" "$bin" --import "$T/big.json" \
	--summary
TPROF_TEST_IMPORT_RUN_KB=1024 "$ANALYZE" --import "$T/big.json" --summary >"$T/plain.txt" \
	2>/dev/null
check "the same summary as the plain build" cmp -s "$T/stdout" "$T/plain.txt"
for f in chrome perfetto; do
	tsan "the import to $f" "$bin" --import "$T/big.json" --format "$f" -o "$T/out.$f"
done
# the plain build: the same trace with the merge on its thread or not
"$ANALYZE" --import "$T/big.json" --format chrome -o "$T/ahead.json" 2>/dev/null
TPROF_TEST_MERGE_AHEAD=0 "$ANALYZE" --import "$T/big.json" --format chrome -o "$T/inline.json" \
	2>/dev/null
check "the merge on a thread of its own or not: the same Chrome trace" \
	cmp -s "$T/ahead.json" "$T/inline.json"

if [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ]; then
	"$top_builddir/tests/tools/gen-profile" -r 8 -s 12 -t 50000 -k "$T/gen" >/dev/null
	ok $? "gen-profile writes a job of 8 ranks, 12 steps of 50 ms"
	for f in json.gz pftrace; do
		# shellcheck disable=SC2086
		tsan "--parallel --split steps:2 to .$f" $MPIRUN $MPIRUN_FLAGS -np 2 "$bin" \
			--parallel "$T/gen" --split steps:2 -o "$T/tsan-$f/t.$f"
		# shellcheck disable=SC2086
		$MPIRUN $MPIRUN_FLAGS -np 2 "$ANALYZE" --parallel "$T/gen" --split steps:2 \
			-o "$T/plain-$f/t.$f" 2>/dev/null
		_same=$?
		for _p in "$T/plain-$f/"t.*; do
			cmp -s "$_p" "$T/tsan-$f/${_p##*/}" || _same=1
		done
		[ "$(ls "$T/plain-$f" | wc -l)" = 13 ] || _same=1
		ok $_same "the same 12 parts and index as the plain build"
	done
else
	skip_n 7 "no mpirun (configure found no MPI)"
fi
finish
