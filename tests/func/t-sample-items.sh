#!/bin/sh
# CPU samples (SI_SAMPLE) in every format, on items made by hand (unit/sample-items): stacks
# of 1, 3, 5 (two kernel frames) and 120 frames (a recursion among them), a stack repeated,
# two stacks that share their callers, a thread with nothing but samples, a sample without a
# stack; each format read by its own reader: python3 json (Chrome), protoc through
# tools/pftrace.py (Perfetto: every callstack interned once per sequence, resolving to the
# right frames in order; and again inside a range drawn after them, held back and written in
# time order), otf2-print (calling contexts, their unwind distances, the
# interrupt generator, inside the thread's regions), sqlite3 (samples, callsites, views).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
plan 11

ITEMS="$top_builddir/tests/unit/sample-items"
for f in chrome perfetto otf2 sqlite; do
	"$ITEMS" $f "$T/out.$f" 2>"$T/$f.err" || { diag "$f: $(cat "$T/$f.err")"; echo fail >"$T/failed"; }
done
[ ! -e "$T/failed" ]
ok $? "the samples are written in every format"

pycheck "Chrome: each sample a thread instant named by its innermost function, with its CPU and stack" \
	chrome-samples "$T/out.chrome"

"$PY" "$top_srcdir/tests/tools/pftrace.py" samples "$T/out.perfetto" >"$T/pf.json" 2>"$T/pf.err"
ok $? "Perfetto: protoc decodes the trace; every callstack, frame, name and mapping resolves, once per sequence"
[ -s "$T/pf.err" ] && diag "$(head -5 "$T/pf.err")"

pycheck "Perfetto: PerfSamples on their threads (pid, tid of the thread descriptor), frames in order, kernel frames in [kernel.kallsyms]" \
	perfetto-samples "$T/pf.json"

pycheck "Perfetto: a repeated stack is interned once, a frame once per sequence however often it recurs" \
	perfetto-interned "$T/out.perfetto"

# The same inside a range drawn after what it encloses (perfetto-nested-order).
"$ITEMS" perfetto-nested "$T/out.nested" 2>"$T/nested.err" &&
	"$PY" "$top_srcdir/tests/tools/pftrace.py" samples "$T/out.nested" >"$T/pfn.json" \
		2>"$T/pfn.err" &&
	"$PY" -B "$CHECKS" perfetto-samples "$T/pfn.json" &&
	"$PY" -B "$CHECKS" perfetto-nested-order "$T/out.nested"
ok $? "Perfetto, inside a range drawn after them: the same samples, main's packets in time order"
[ -s "$T/pfn.err" ] && diag "$(head -5 "$T/pfn.err")"

otf2_print "$T/out.otf2/traces.otf2" "$T/o.txt"
ok $? "OTF2: otf2-print reads the archive without complaint"
[ -s "$T/o.txt.err" ] && diag "$(head -5 "$T/o.txt.err")"

pycheck "OTF2: a CallingContextSample per sample with a stack, its context the stack, kernel frames in regions of their own kind, the CPU as attribute" \
	otf2-samples "$T/o.txt"

pycheck "OTF2: unwind distances, the interrupt generator (period: the median interval), samples inside the call they interrupted" \
	otf2-distances "$T/o.txt"

pycheck "SQLite: a row per sample on its thread track, its stack from its callsite up, named_samples with its function" \
	sqlite-samples "$T/out.sqlite"

pycheck "SQLite: a callsite per distinct frame and caller, parents first; sample_functions counts self and total samples" \
	sqlite-callsites "$T/out.sqlite"
finish
