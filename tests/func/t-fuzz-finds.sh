#!/bin/sh
# The inputs on which the fuzz targets (tests/fuzz/) found a problem, kept in their corpora as
# tests/fuzz/corpus/TARGET/find-*, replayed through tprof-analyze as each target runs it, in
# this build (in a sanitizer build, leaks included): no crash, no sanitizer report, an exit
# status of 0, 1 or 2; and what the fix of each made true.
. "$(dirname "$0")/lib.sh"
CORPUS="$top_srcdir/tests/fuzz/corpus"
finds=$(cd "$CORPUS" && ls -d */find-* 2>/dev/null)
[ -n "$finds" ] || skip_all "no find-* inputs in $CORPUS"
plan $(($(echo "$finds" | wc -l) + 3))

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
		py 'import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
if not b:
    sys.exit(1)
pay = b[1:]
n = len(pay)
fh = bytearray(64)
struct.pack_into("<8sHHIQII", fh, 0, b"TPROF\0TR", 1, 64, 0x01020304, 1, 1, 0)
struct.pack_into("<I", fh, 60, zlib.crc32(bytes(fh[:60])))
ch = bytearray(64)
units, records = n // 4 + 1, n // 7 + 1
struct.pack_into("<4sHHIIIIQQIIIIII", ch, 0, b"TPCK", 1, 64, 1, 0, 0, units, 0, 0, n, n, 0,
                 2 if b[0] & 1 else 4, records, 0)
struct.pack_into("<I", ch, 60, zlib.crc32(bytes(ch[:60])))
open(sys.argv[2] + "/p/fz.1.00000001.tpf", "wb").write(bytes(fh) + bytes(ch) + pay)' \
			"$_f" "$_d" && set -- "$_d/p" --summary "$@" ;;
	render)
		# the layout and the choice of output of fuzz-render.c
		# shellcheck disable=SC2046
		set -- $(py 'import struct, sys
b = open(sys.argv[1], "rb").read()
d = sys.argv[2]
if len(b) < 5:
    sys.exit(1)
sel, n = b[0], struct.unpack_from("<I", b, 1)[0]
b = b[5:]
n = min(n, len(b))
open(d + "/p/fz.1.00000001.tpf", "wb").write(b[:n])
if len(b) > n:
    open(d + "/p/fz.1.00000001.spool", "wb").write(b[n:])
g = ["process", "domain", "neuroncore", "instance"][sel >> 3 & 3]
win = ["--start", "10", "--end", "200000"] if sel & 0x20 else []
out = [["-s"], ["--summary=json"], ["-f", "chrome", "-o", d + "/t.json", "--group-by", g],
       ["-f", "perfetto", "-o", d + "/t.pftrace", "--group-by", g],
       ["-f", "otf2", "-o", d + "/t.otf2"], ["-f", "sqlite", "-o", d + "/t.db"],
       ["-f", "chrome", "--split", "size:0.01", "-o", d + "/t.json"]][min(sel & 7, 6)]
print(" ".join([d + "/p"] + out + win))' "$_f" "$_d") "$@" ;;
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
py 'import json, sys
h = json.load(open(sys.argv[1]))["header"]
sys.exit(0 if h["trace_start_unix_ns"] == 0 and h["wall_time_ns"] == 0 else h)' "$T/r/out"
ok $? "a spool in which nothing has a time: the trace starts at 0 and lasts 0"
replay json "$CORPUS/json/find-empty-file" "$T/r"
[ $? -eq 1 ] && grep -q "in.json" "$T/r/err"
ok $? "an empty JSON file: nothing read (status 1), the file named"
replay records "$CORPUS/records/find-empty-payload" "$T/r"
[ $? -eq 0 ] && grep -q "records could not be decoded" "$T/r/err"
ok $? "a chunk of no payload that claims records: they are skipped as damage, and said so"
finish
