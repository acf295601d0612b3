#!/bin/sh
# Damaged input: a trace file cut short, a chunk whose payload has flipped bytes, a chunk
# whose header has, a file that is not tprof's beside a good trace, and a directory of
# nothing but such files.  The analyzer names the file and the offset of the damage, skips
# what is damaged, and reads everything else intact: nothing it still reports exceeds or
# differs from what the undamaged trace holds.
. "$(dirname "$0")/lib.sh"
plan 18

# 16 threads x 1000 iterations with 16 KiB buffers: about 200 chunks of 510 records.
TPROF_BUFFER_KB=16 record_env "$T/good" "$APPS/threads" 16 1000 >"$T/good.out" 2>"$T/good.err"
ok $? "record a 16-thread trace with 16 KiB buffers"
tpf=$(ls "$T/good"/*.tpf 2>/dev/null | head -n 1)
name=${tpf##*/}
"$ANALYZE" "$T/good" --format chrome -o "$T/good.json" 2>"$T/good.analyze.err" &&
	! grep -q warning "$T/good.analyze.err" && [ -z "$(ls "$T/good" | grep -v '\.tpf$')" ]
ok $? "the undamaged trace reads without a warning (and no spool was left)"

# print-chunks FILE: one line per chunk, "offset stream seq records payload_length".
"$PY" -B "$CHECKS" print-chunks "$tpf" >"$T/chunks"
ok $? "the trace file parses as a file header and a sequence of chunks"
nchunks=$(wc -l <"$T/chunks")
diag "$nchunks chunks in $name"

# A chunk of a thread stream in the middle of the file, and the one after it.
mid=$(awk -v n="$nchunks" '$2 != 0 { c[++k] = $0 } END { print c[int(k / 2)] }' "$T/chunks")
set -- $mid 0 0 0 0 0
moff=$1 mstream=$2 mseq=$3 mrecs=$4 mcomp=$5
diag "damaging the chunk at offset $moff (stream $mstream, buffer $mseq, $mrecs records, $mcomp payload bytes)"

# damaged NAME: a copy of the good directory to damage.
damaged() { rm -rf "$T/$1"; cp -R "$T/good" "$T/$1"; }

# intact GOOD.json DAMAGED.json exact|loose: what survives in DAMAGED.json must be in
# GOOD.json (damaged.py says how).

# (a) cut in the middle of the chunk's payload.
damaged cut
truncate -s $((moff + 64 + mcomp / 2)) "$T/cut/$name"
"$ANALYZE" "$T/cut" --format chrome -o "$T/cut.json" 2>"$T/cut.err"
ok $? "truncated file: the analyzer still exits 0"
grep -q "^tprof-analyze: warning: $T/cut/$name: offset $moff: " "$T/cut.err"
ok $? "truncated file: a warning names the file and the offset of the cut chunk ($moff)"
[ -s "$T/cut.err" ] && diag "$(cat "$T/cut.err")"
pycheck "truncated file: the events before the cut are read, fewer than before, each sample intact" \
	intact "$T/good.json" "$T/cut.json" loose

# (b1) flipped bytes in the payload of one chunk.
damaged pay
printf '\377\377\377\377' | dd of="$T/pay/$name" bs=1 seek=$((moff + 64 + mcomp / 2)) conv=notrunc 2>/dev/null
"$ANALYZE" "$T/pay" --format chrome -o "$T/pay.json" 2>"$T/pay.err"
ok $? "flipped payload bytes: the analyzer still exits 0"
grep -q "^tprof-analyze: warning: $T/pay/$name: offset $moff: .*checksum" "$T/pay.err" &&
	[ "$(grep -c warning "$T/pay.err")" -eq 1 ]
ok $? "flipped payload bytes: one warning, naming the file, the chunk's offset ($moff) and the checksum"
[ -s "$T/pay.err" ] && diag "$(cat "$T/pay.err")"
pycheck "flipped payload bytes: every other chunk is read, and all that is read is intact" \
	intact "$T/good.json" "$T/pay.json" exact
"$ANALYZE" "$T/pay" --summary >"$T/pay.summary" 2>/dev/null
grep -q "skipped: .*\[damaged input: $mrecs records in 1 chunks\]" "$T/pay.summary"
ok $? "flipped payload bytes: the summary counts the $mrecs records of the one chunk skipped"

# (b2) flipped bytes in the header of the same chunk (its record count).
damaged hdr
printf '\125\125' | dd of="$T/hdr/$name" bs=1 seek=$((moff + 56)) conv=notrunc 2>/dev/null
"$ANALYZE" "$T/hdr" --format chrome -o "$T/hdr.json" 2>"$T/hdr.err"
ok $? "flipped header bytes: the analyzer still exits 0"
grep -q "^tprof-analyze: warning: $T/hdr/$name: offset $moff: .*resuming at offset $((moff + 64 + mcomp))" "$T/hdr.err" &&
	[ "$(grep -c warning "$T/hdr.err")" -eq 1 ]
ok $? "flipped header bytes: one warning, naming the file, the header's offset and where reading resumes"
[ -s "$T/hdr.err" ] && diag "$(cat "$T/hdr.err")"
pycheck "flipped header bytes: every following chunk is found again, and all that is read is intact" \
	intact "$T/good.json" "$T/hdr.json" exact

# (c) a file that is not tprof's, beside the good trace.
damaged junk
head -c 5000 /dev/urandom >"$T/junk/notes.bin"
"$ANALYZE" "$T/junk" --format chrome -o "$T/junk.json" 2>"$T/junk.err"
ok $? "a foreign file in the directory: the analyzer still exits 0"
grep -q "^tprof-analyze: warning: $T/junk/notes.bin: offset 0: " "$T/junk.err" &&
	[ "$(grep -c warning "$T/junk.err")" -eq 1 ]
ok $? "a foreign file in the directory: one warning, naming it"
pycheck "a foreign file in the directory: the trace is exactly the undamaged one" \
	same-trace "$T/good.json" "$T/junk.json"

# (d) nothing but foreign files.
mkdir "$T/only"
head -c 3000 /dev/urandom >"$T/only/a.bin"
printf 'hello\n' >"$T/only/readme.txt"
"$ANALYZE" "$T/only" --summary >"$T/only.out" 2>"$T/only.err"
rc=$?
[ "$rc" -eq 1 ] && grep -q "^tprof-analyze: no tprof data could be read under $T/only" "$T/only.err"
ok $? "only foreign files: exit 1 (got $rc) and a message saying nothing could be read"
grep -q "^tprof-analyze: warning: $T/only/a.bin: offset 0: " "$T/only.err" &&
	grep -q "^tprof-analyze: warning: $T/only/readme.txt: offset 0: " "$T/only.err"
ok $? "only foreign files: each is named in a warning"
finish
