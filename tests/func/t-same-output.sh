#!/bin/sh
# The tools that show a change changes no output: with TPROF_TEST_KEEP set, the analyzer's
# inputs are kept (analyze-keep.sh: the profile copied, the arguments written with it), and
# scripts/same-output.sh finds no difference between an analyzer and itself, and finds the
# one a changed analyzer makes, naming the input and the output that differ.
. "$(dirname "$0")/lib.sh"
plan 5

REAL=${ANALYZE_REAL:-$ANALYZE}
[ -n "${TPROF_TEST_KEEP:-}" ] && REAL=$ANALYZE_KEEP_NEXT
"$INSPECT" -o "$T/p" -- "$APPS/threads" 2 100 >/dev/null 2>&1
ok $? "a profile to read"

mkdir "$T/kept"
TPROF_TEST_KEEP="$T/kept" ANALYZE_KEEP_NEXT="$REAL" TPROF_TEST_NAME=t \
	"$top_srcdir/tests/func/analyze-keep.sh" "$T/p" --group-by domain -o "$T/x.json" 2>"$T/err"
test $? -eq 0 && test -s "$T/x.json" && [ "$(ls "$T/kept")" != "" ] &&
	d=$(ls -d "$T/kept"/t.*) && test -d "$d/in1" &&
	[ "$(tr '\n' ' ' <"$d/args")" = "@in1 --group-by domain -o $T/x.json " ]
ok $? "the wrapper ran the analyzer and kept its input and arguments"

"$top_srcdir/scripts/same-output.sh" "$T/kept" "$REAL" "$REAL" >"$T/same" 2>&1
ok $? "an analyzer against itself: no difference"
diag "$(tail -n 1 "$T/same")"

printf '#!/bin/sh\n"%s" "$@"; rc=$?; echo one more line; exit $rc\n' "$REAL" >"$T/changed"
chmod +x "$T/changed"
"$top_srcdir/scripts/same-output.sh" "$T/kept" "$REAL" "$T/changed" >"$T/diff" 2>&1
test $? -ne 0
ok $? "against a changed analyzer: differences found"
grep -q "^differs: t\.[0-9]* --summary: out" "$T/diff" && grep -q "^differs: t\.[0-9]* --chrome: out" "$T/diff" &&
	! grep -q -- "--chrome: json" "$T/diff"
ok $? "each difference names the input and what differs (the output, not the trace)"
finish
