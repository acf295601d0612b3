#!/bin/sh
# A runtime added to tprof from outside (toy.h): the toy program runs under the recorder with
# the toy's hooks linked in and prints what it prints without; tprof-analyze with the toy's
# runtime registered shows its calls with their arguments, their work on a device track with
# arrows, and its summary table (toy_check.py); tprof-analyze without it still reads the
# profile, the calls under the generic category and in the summary's table of calls of
# runtimes it does not know; and no file of the product names the toy.
. "$(dirname "$0")/../func/lib.sh"
plan 7
TOY="$top_builddir/tests/toy"
LIB="$TOY/.libs/libtrace_preload_toy.so"
[ "${SANITIZERS:-no}" = yes ] && [ -n "${ASAN_RUNTIME:-}" ] && LIB="$ASAN_RUNTIME:$LIB"

"$TOY/toyapp" >"$T/plain.out" 2>&1
plain_rc=$?
TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/out" LD_PRELOAD="$LIB" "$TOY/toyapp" >"$T/rec.out" 2>&1
rc=$?
[ "$rc" -eq "$plain_rc" ] && cmp -s "$T/plain.out" "$T/rec.out" &&
	grep -qx "toyapp 0 0 0 -1" "$T/rec.out"
ok $? "the toy program, recorded: its output and exit status its own ($(cat "$T/rec.out"))"

"$TOY/tprof-analyze-toy" "$T/out" -f chrome -o "$T/toy.json" 2>"$T/an.err"
ok $? "tprof-analyze with the toy runtime writes the Chrome trace"
"$TOY/tprof-analyze-toy" "$T/out" --summary >"$T/toy.sum" 2>>"$T/an.err" &&
	"$TOY/tprof-analyze-toy" "$T/out" --summary --summary-format json >"$T/toy.sum.json" \
		2>>"$T/an.err"
ok $? "and the summary, text and JSON"
[ -s "$T/an.err" ] && diag "$(cat "$T/an.err")"

"$PY" -B "$top_srcdir/tests/toy/toy_check.py" toy "$T/toy.json" "$T/toy.sum" "$T/toy.sum.json" \
	>"$T/check.out" 2>&1
ok $? "toy calls with widgets and gadget, toy work on a device track, arrows, the toy table"
[ -s "$T/check.out" ] && diag "$(cat "$T/check.out")"

"$ANALYZE" "$T/out" -f chrome -o "$T/plain.json" 2>"$T/plain.err" &&
	"$ANALYZE" "$T/out" --summary >"$T/plain.sum" 2>>"$T/plain.err" &&
	"$ANALYZE" "$T/out" --summary --summary-format json >"$T/plain.sum.json" 2>>"$T/plain.err"
ok $? "tprof-analyze without it reads the profile"
"$PY" -B "$top_srcdir/tests/toy/toy_check.py" plain "$T/plain.json" "$T/plain.sum" \
	"$T/plain.sum.json" >"$T/check2.out" 2>&1
ok $? "and shows the four calls under the generic category and in the API calls table"
[ -s "$T/check2.out" ] && diag "$(cat "$T/check2.out")"

# Adding it touched nothing else: no file of the recorder, the analyzer, the shared code or
# the build outside tests/ names it.
found=$(grep -rlE 'toyMake|TOY_DOMAIN|runtime_toy|hook-toy' "$top_srcdir/preload" \
	"$top_srcdir/analyze" "$top_srcdir/common" "$top_srcdir/include" \
	"$top_srcdir/configure.ac" "$top_srcdir/Makefile.am" 2>/dev/null)
[ -z "$found" ]
ok $? "no file of the product names the toy runtime${found:+: $found}"
