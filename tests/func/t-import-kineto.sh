#!/bin/sh
# Kineto's traces converted to every format.  tools/mk-kineto-trace.py writes the shapes that
# made real traces lose arrows, crash the renderers or break the OTF2 archive (a kernel in its
# launch's microsecond, a launch starting with its parent op, an f at the boundary of two
# kernels, an f without "bp", an id used twice, a graph launch with three kernels, a chain
# s → t → f across threads, the same args keys in another order, a key given twice, args of
# more values than an item shows), its events in the file's order, reversed and shuffled.
# Every arrow it holds comes out in Chrome and Perfetto, the OTF2 archive reads with
# otf2-print with each value under its own name, SQLite holds what Chrome does, and what had
# no pair is counted.  Then two real traces (traces/: PyTorch's profiler on CUDA,
# HolisticTraceAnalysis' test data): the AlexNet trace's 139 ids with both ends give 139
# arrows, and the rank-0 trace converts to every format.
. "$(dirname "$0")/lib.sh"
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
GEN="$top_srcdir/tests/tools/mk-kineto-trace.py"
SQLCHECK="$top_srcdir/tests/tools/lib-sqlite.py"
TRACES="$top_srcdir/tests/traces"
command -v otf2-print >/dev/null 2>&1 || skip_all "otf2-print is not installed"
command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 is not installed"
plan 25

# arrows CHROME_JSON: the number of flow ids with both ends in a Chrome trace
arrows() { "$PY" -B "$CHECKS" arrow-count "$1"; }

for order in file reversed shuffled; do
	k="$T/k-$order"
	"$PY" "$GEN" --order "$order" --seed 7 "$k.json" >"$k.want" 2>"$k.gen.err"
	want=$("$PY" -B "$CHECKS" want-arrows "$k.want")
	"$ANALYZE" --import "$k.json" -v -f chrome -o "$k.out.json" 2>"$k.err" &&
		[ "$(arrows "$k.out.json")" = "$want" ]
	ok $? "$order order: Chrome, $want arrows as the file holds (got $(arrows "$k.out.json" 2>/dev/null))"
	"$ANALYZE" --import "$k.json" -f perfetto -o "$k.pftrace" 2>"$k.pf.err" &&
		"$PY" "$PFTRACE" compare --flows-outside-slices "$k.pftrace" "$k.out.json" >"$k.pf.json" \
			2>"$k.pf.check" &&
		"$PY" -B "$CHECKS" perfetto-flows "$k.pf.json" "$want"
	ok $? "$order order: Perfetto decodes, holds what Chrome does, $want flows"
	[ -s "$k.pf.check" ] && diag "$(head -c 600 "$k.pf.check")"
	"$ANALYZE" --import "$k.json" -f otf2 -o "$k.otf2" 2>"$k.otf2.err" &&
		otf2-print "$k.otf2/traces.otf2" >"$k.otf2.txt" 2>&1
	ok $? "$order order: the OTF2 archive is complete and otf2-print reads it"
	grep -i "already exists\|incomplete" "$k.otf2.err" | sed 's/^/# /'
	"$ANALYZE" --import "$k.json" -f sqlite -o "$k.sqlite" 2>"$k.sql.err" &&
		"$PY" "$SQLCHECK" counts "$k.sqlite" "$k.out.json" >"$k.sql.out" 2>&1
	ok $? "$order order: SQLite holds the slices and flows Chrome does"
	[ $? -eq 0 ] || diag "$(tail -n 3 "$k.sql.out")"
done

# Each value under its own name: two events with the same keys in another order, a key twice.
"$PY" -B "$CHECKS" otf2-attributes "$T/k-shuffled.otf2.txt"
ok $? "OTF2: keys in another order keep their names and values; a key given twice is \"k\" and \"k (2)\""

"$PY" -B "$CHECKS" verbose-counts "$T/k-file.err" "$T/k-file.want"
ok $? "-v counts the flow ends with no start, the starts never ended and the args left out"

"$PY" -B "$CHECKS" args-cut "$T/k-file.out.json"
ok $? "args of more values than an item shows: the value that does not fit left out whole, the others kept, the item says so"

# ---- real traces -------------------------------------------------------------------------------
A="$T/alexnet"
"$ANALYZE" --import "$TRACES/hta-alexnet.json.gz" -f chrome -o "$A.json" 2>"$A.err" &&
	[ "$(arrows "$A.json")" = 139 ]
ok $? "AlexNet: 139 launch→kernel arrows in Chrome, one per id with both ends (got $(arrows "$A.json" 2>/dev/null))"
"$ANALYZE" --import "$TRACES/hta-alexnet.json.gz" -f perfetto -o "$A.pftrace" 2>/dev/null &&
	"$PY" "$PFTRACE" compare --flows-outside-slices "$A.pftrace" "$A.json" >"$A.pf.json" 2>"$A.pf.err" &&
	"$PY" -B "$CHECKS" alexnet-flows "$A.pf.json"
ok $? "AlexNet: 139 flows in Perfetto, which holds what Chrome does"
"$ANALYZE" --import "$TRACES/hta-alexnet.json.gz" -f otf2 -o "$A.otf2" 2>"$A.otf2.err" &&
	otf2-print "$A.otf2/traces.otf2" >/dev/null 2>&1
ok $? "AlexNet: the OTF2 archive is complete and otf2-print reads it"
"$ANALYZE" --import "$TRACES/hta-alexnet.json.gz" -f sqlite -o "$A.sqlite" 2>/dev/null &&
	"$PY" "$SQLCHECK" counts "$A.sqlite" "$A.json" >/dev/null
ok $? "AlexNet: SQLite holds what Chrome does"

R="$T/rank0"
"$ANALYZE" --import "$TRACES/hta-rank0-queue.json.gz" -f chrome -o "$R.json" 2>"$R.err"
ok $? "rank 0: converts to Chrome"
[ "$(arrows "$R.json")" -ge 6600 ]
ok $? "rank 0: an arrow for each of its 6600 ids with both ends ($(arrows "$R.json" 2>/dev/null) with the graph launches' further kernels)"
# (its args hold empty lists, which Perfetto's annotations cannot tell from empty objects: the
# slices are compared by count, not argument by argument)
"$ANALYZE" --import "$TRACES/hta-rank0-queue.json.gz" -f perfetto -o "$R.pftrace" 2>/dev/null &&
	"$PY" "$PFTRACE" check "$R.pftrace" >"$R.pf.json" 2>"$R.pf.err" &&
	"$PY" -B "$CHECKS" perfetto-as-chrome "$R.pf.json" "$R.json"
ok $? "rank 0: converts to Perfetto, protoc decodes it, its slices, instants and flows as in Chrome"
[ -s "$R.pf.err" ] && diag "$(head -c 400 "$R.pf.err")"
"$ANALYZE" --import "$TRACES/hta-rank0-queue.json.gz" -f otf2 -o "$R.otf2" 2>"$R.otf2.err" &&
	otf2-print "$R.otf2/traces.otf2" >/dev/null 2>&1
ok $? "rank 0: the OTF2 archive is complete and otf2-print reads it"
"$ANALYZE" --import "$TRACES/hta-rank0-queue.json.gz" -f sqlite -o "$R.sqlite" 2>/dev/null &&
	"$PY" "$SQLCHECK" counts "$R.sqlite" "$R.json" >/dev/null
ok $? "rank 0: SQLite holds what Chrome does"
"$ANALYZE" --import "$TRACES/hta-rank0-queue.json.gz" --summary >"$R.sum" 2>/dev/null &&
	grep -q "^  import: .* changed or left out" "$R.sum"
ok $? "rank 0: the summary, with what the import changed or left out"
finish
