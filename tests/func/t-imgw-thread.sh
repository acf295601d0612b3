#!/bin/sh
# An image whose chunks are made and written by a thread of its own (common/imgwrite.c with
# opts.thread, as the import writes its images) holds exactly the records of the same image
# written on one thread: unit/test-imgw-thread writes both, tools/dump-records reads both.
# Then the same under ThreadSanitizer, with no report.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-imgw-thread"
[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
tbin="$top_builddir/tests/unit/test-imgw-thread-tsan"
if [ -x "$tbin" ]; then plan 6; else plan 4; fi

mkdir -p "$T/a/thread" "$T/a/plain"
"$bin" "$T/a" >"$T/a.out" 2>"$T/a.err"
ok $? "both images are written"
"$DUMP" "$T/a/thread" >"$T/thread.json" 2>"$T/thread.err" &&
	"$DUMP" "$T/a/plain" >"$T/plain.json" 2>"$T/plain.err"
ok $? "dump-records reads both"
"$PY" -B "$CHECKS" same-records "$T/thread.json" "$T/plain.json"
ok $? "the same records in the same order, 300000 marks"
grep -q "thread=1 records=300000" "$T/a.out" &&
	grep -q "thread=0 records=300000" "$T/a.out"
ok $? "both count 300000 records written once flushed"

# Under ThreadSanitizer where this build has it (the plain build; a sanitizer build leaves it
# to that one, and the plan counts what runs).
if [ -x "$tbin" ]; then
	mkdir -p "$T/t/thread" "$T/t/plain"
	tsan "runs to the end under ThreadSanitizer" "$tbin" "$T/t"
fi
finish
