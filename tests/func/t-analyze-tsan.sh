#!/bin/sh
# tprof-analyze under ThreadSanitizer: the import's reader, its runs and image writers, and the
# merge that reads the streams ahead of the pipeline (forced on), each on a thread of its own.  A recorded
# profile with a framework trace in it, and an imported trace large enough to go round the
# merge's batches many times, to every format: the same output as the plain build, no report.
. "$(dirname "$0")/lib.sh"
# the merge on its thread from the first record, whatever the output
export TPROF_TEST_MERGE_AHEAD=1
bin="$top_builddir/analyze/tprof-analyze-tsan"
GEN="$top_builddir/tests/tools/mk-chrome-trace"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
plan 13

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
finish
