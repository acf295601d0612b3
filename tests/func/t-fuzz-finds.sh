#!/bin/sh
# The inputs on which the fuzz targets (tests/fuzz/) found a problem, kept in their corpora as
# tests/fuzz/corpus/TARGET/find-*, replayed through tprof-analyze as each target runs it, in
# this build (in a sanitizer build, leaks included): no crash, no sanitizer report, an exit
# status of 0, 1 or 2; and what the fix of each made true.
. "$(dirname "$0")/lib.sh"
CORPUS="$top_srcdir/tests/fuzz/corpus"
finds=$(cd "$CORPUS" && ls -d */find-* 2>/dev/null)
[ -n "$finds" ] || skip_all "no find-* inputs in $CORPUS"
plan $(($(echo "$finds" | wc -l) + 4))

# replay TARGET FILE DIR [ARGS...]: FILE as the fuzz target TARGET hands it to tprof-analyze
# (fuzz-TARGET.c), its files and outputs in DIR, then ARGS; stdout in DIR/out, stderr in
# DIR/err.
replay() {
	_t=$1 _f=$2 _d=$3
	shift 3
	rm -rf "$_d"
	mkdir -p "$_d/p"
	case $_t in
	tpf) cp "$_f" "$_d/p/fz.1.00000001.tpf" && set -- "$_d/p" --summary "$@" ;;
	spool) cp "$_f" "$_d/p/fz.1.00000001.spool" && set -- "$_d/p" --summary "$@" ;;
	json) cp "$_f" "$_d/in.json" && set -- --import "$_d/in.json" --summary=json "$@" ;;
	records)
		# a chunk file around the payload, as fuzz-records.c makes it
		"$PY" -B "$CHECKS" records-chunk "$_f" "$_d" && set -- "$_d/p" --summary "$@" ;;
	live)
		# the spools of fuzz-live.c
		"$PY" -B "$CHECKS" live-spools "$_f" "$_d" && set -- "$_d/p" --live --once "$@" ;;
	render)
		# the layout and the choice of output of fuzz-render.c
		# shellcheck disable=SC2046
		set -- $("$PY" -B "$CHECKS" render-args "$_f" "$_d") "$@" ;;
	esac
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 "$ANALYZE" "$@" --no-progress \
		>"$_d/out" 2>"$_d/err"
}

for x in $finds; do
	replay "${x%%/*}" "$CORPUS/$x" "$T/r"
	rc=$?
	[ "$rc" -le 2 ] && ! grep -q "runtime error\|AddressSanitizer\|LeakSanitizer" "$T/r/err"
	r=$?
	ok $r "$x: exit status $rc, no sanitizer report"
	[ $r -eq 0 ] || diag "$(grep -m3 "runtime error\|ERROR\|SUMMARY" "$T/r/err")"
done

# What the fixes made true.
replay spool "$CORPUS/spool/find-nothing-timed" "$T/r" --summary=json
pycheck "a spool in which nothing has a time: the trace starts at 0 and lasts 0" \
	nothing-timed "$T/r/out"
replay json "$CORPUS/json/find-empty-file" "$T/r"
[ $? -eq 1 ] && grep -q "in.json" "$T/r/err"
ok $? "an empty JSON file: nothing read (status 1), the file named"
replay records "$CORPUS/records/find-empty-payload" "$T/r"
[ $? -eq 0 ] && grep -q "records could not be decoded" "$T/r/err"
ok $? "a chunk of no payload that claims records: they are skipped as damage, and said so"
replay live "$CORPUS/live/find-huge-communicator" "$T/r"
[ $? -eq 0 ] && grep -q "and 1781360484 more have not entered" "$T/r/out"
ok $? "--live, a collective on a communicator of 1781360494 ranks: the ranks missing counted, not visited"
finish
