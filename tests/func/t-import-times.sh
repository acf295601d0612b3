#!/bin/sh
# Extreme times and numbers in an imported trace: baseTimeNanoseconds at INT64_MIN and
# INT64_MAX, times and durations at the ends of the range, values far beyond 64-bit integers
# (a sort index, counter values, args).  Every conversion succeeds, what was held at the end
# of the range or left out is counted, and the JSON written reads back; in the sanitizer build
# (float-cast-overflow included) nothing is undefined: the run would stop at the first case.
# Times beyond +-(2^61 - 1) ns of the file's zero are held there and counted; the slices
# between keep their durations exactly, however far the file's times or --import-offset reach
# (a file placed past the analyzer's axis, +-(2^62 - 1) ns, is moved back onto it whole).
. "$(dirname "$0")/lib.sh"
plan 14

cat >"$T/base-min.json" <<'EOF'
{"baseTimeNanoseconds": -9223372036854775808, "traceEvents": [
{"ph":"X","name":"a","pid":1,"tid":1,"ts":-5,"dur":2},
{"ph":"X","name":"b","pid":1,"tid":1,"ts":9000000000000000,"dur":1}]}
EOF
cat >"$T/base-max.json" <<'EOF'
{"baseTimeNanoseconds": 9223372036854775807, "traceEvents": [
{"ph":"X","name":"a","pid":1,"tid":1,"ts":5,"dur":2}]}
EOF
cat >"$T/ends.json" <<'EOF'
{"traceEvents": [
{"ph":"M","name":"process_sort_index","pid":1,"args":{"sort_index":1e300}},
{"ph":"X","name":"late","pid":1,"tid":1,"ts":9223372036854775,"dur":9223372036854775,
 "args":{"big":1e300,"small":-1e300,"edge":9.3e18,"int":-9223372036854775808}},
{"ph":"X","name":"early","pid":1,"tid":1,"ts":-9223372036854775,"dur":5},
{"ph":"C","name":"c","pid":1,"tid":1,"ts":10,"args":{"v":1e300,"w":-1e300,"x":1.8446744073709552e19}},
{"ph":"i","name":"i","pid":1,"tid":1,"ts":11,"args":{"n":1e308}}]}
EOF
# times near -2^63 and 2^63 ns, and one ordinary slice between
cat >"$T/far.json" <<'EOF'
{"traceEvents": [
{"ph":"X","name":"early","pid":1,"tid":1,"ts":-9000000000000000,"dur":5},
{"ph":"X","name":"mid","pid":1,"tid":1,"ts":0,"dur":1000},
{"ph":"X","name":"late","pid":1,"tid":1,"ts":9000000000000000,"dur":7}]}
EOF
# a slice that ends past the range, with slices after it inside it
cat >"$T/x-end.json" <<'EOF'
{"traceEvents": [
{"ph":"X","name":"long","pid":1,"tid":1,"ts":10,"dur":9223372036854775},
{"ph":"X","name":"inner","pid":1,"tid":1,"ts":20,"dur":5},
{"ph":"X","name":"after","pid":1,"tid":1,"ts":40,"dur":5}]}
EOF

for f in base-min base-max ends; do
	n=0
	for fmt in chrome perfetto otf2 sqlite; do
		rm -rf "$T/$f.$fmt"
		"$ANALYZE" --import "$T/$f.json" -f "$fmt" -o "$T/$f.$fmt" 2>>"$T/$f.err" || n=$((n + 1))
	done
	"$ANALYZE" --import "$T/$f.json" --summary=json >"$T/$f.sum.json" 2>>"$T/$f.err" || n=$((n + 1))
	[ "$n" -eq 0 ] && ! grep -q "runtime error" "$T/$f.err"
	ok $? "$f: converts to Chrome, Perfetto, OTF2, SQLite and the summary, nothing undefined"
	grep "runtime error\|error" "$T/$f.err" | head -n 3 | sed 's/^/# /'
	pycheck "$f: the Chrome trace and the summary are JSON that reads back" \
		reads-back "$T/$f.chrome" "$T/$f.sum.json"
done

grep -q "baseTimeNanoseconds -9223372036854775808 puts the file's times out of range: ignored" \
	"$T/base-min.err" &&
	"$PY" -B "$CHECKS" one-member-bad "$T/base-min.sum.json"
ok $? "baseTimeNanoseconds INT64_MIN with a time before the base: said, counted, and not used"
grep -q "baseTimeNanoseconds 9223372036854775807 puts the file's times out of range: ignored" \
	"$T/base-max.err"
ok $? "baseTimeNanoseconds INT64_MAX: said and not used"
pycheck "a slice beginning before the range and one ending past it: held at its ends, each "\
"counted" \
	two-time-range "$T/ends.sum.json"
pycheck "numbers beyond 64-bit integers written exactly as they were read" \
	exact-numbers "$T/ends.chrome"

n=0
for off in "" 9000000000000 -9000000000000; do
	rm -f "$T/far.chrome"
	"$ANALYZE" --import "$T/far.json" ${off:+--import-offset "$off"} -f chrome \
		-o "$T/far.chrome" 2>>"$T/far.err" || n=$((n + 1))
	"$PY" -B "$CHECKS" far-slices "$T/far.chrome" "$off" || n=$((n + 1))
done
"$ANALYZE" --import "$T/far.json" --summary=json >"$T/far.sum.json" 2>>"$T/far.err" &&
	"$PY" -B "$CHECKS" only-time-range "$T/far.sum.json" 2 || n=$((n + 1))
[ "$n" -eq 0 ] && ! grep -q "runtime error" "$T/far.err"
ok $? "times near +-2^63 ns: held within the range and counted; the slice between keeps its duration (no offset, --import-offset +-9e12 us)"

rm -f "$T/x-end.chrome"
"$ANALYZE" --import "$T/x-end.json" -f chrome -o "$T/x-end.chrome" 2>"$T/x-end.err" &&
	"$ANALYZE" --import "$T/x-end.json" --summary=json >"$T/x-end.sum.json" 2>>"$T/x-end.err" &&
	"$PY" -B "$CHECKS" only-time-range "$T/x-end.sum.json" 1
ok $? "a slice ending past the range is counted as held there, not as a B never ended"
pycheck "it lasts to the end of the range, the slices inside it as they were" \
	held-to-end "$T/x-end.chrome"

# Times from the file's own start, imported alone: no day of 1970, but "no date".
printf '{"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":100,"dur":50}]}\n' \
	>"$T/relative.json"
"$ANALYZE" --import "$T/relative.json" --summary >"$T/relative.txt" 2>&1 &&
	"$ANALYZE" --import "$T/relative.json" --summary=json >"$T/relative.sum.json" 2>/dev/null &&
	grep -q '(no date: its input gives times from its own start only)' "$T/relative.txt" &&
	! grep -q 1970 "$T/relative.txt" &&
	"$PY" -B "$CHECKS" undated "$T/relative.sum.json"
ok $? "relative times imported alone: the summary says it has no date (not 1970), JSON dated false"
finish
