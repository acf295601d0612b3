#!/bin/sh
# Links in the profile directory: a link to the parent and two links to the directory itself
# are not followed (the scan ends, each process is read once, each link named in a warning),
# a file reached under a second name (a link to it, a hard link) is read once, a link to
# nothing is named as unreadable in a warning and in the summary's header (text and JSON),
# and directories are read 8 levels deep, as tprof-analyze(1) says, a deeper one named.
. "$(dirname "$0")/lib.sh"
plan 10

MK="$top_builddir/tests/tools/mk-hostile"
D="$T/prof"
"$MK" procs "$T/gen" 2 >/dev/null
mkdir -p "$D/host/a/b/c/d/e/f/g/h"
set -- "$T/gen"/*.tpf
cp "$1" "$D/host/"
cp "$2" "$D/host/a/b/c/d/e/f/g/"           # 8 levels below the profile directory: read
cp "$2" "$D/host/a/b/c/d/e/f/g/h/deep.1.1.tpf"    # 9 levels: not read
b=${1##*/}
ln -s .. "$D/host/up"
ln -s . "$D/host/self1"
ln -s . "$D/host/self2"
ln -s "$b" "$D/host/alias.tpf"
ln "$D/host/$b" "$D/host/hard.tpf"
ln -s nowhere "$D/host/gone.1.2.tpf"

timeout 60 "$ANALYZE" "$D" --summary >"$T/sum" 2>"$T/err"
ok $? "the scan ends (status 0, within a minute)"
[ -s "$T/err" ] && diag "$(cat "$T/err")"
grep -q "processes: *2 " "$T/sum"
ok $? "each process read once: 2 processes"
diag "$(grep "processes:" "$T/sum")"
named=0
for l in up self1 self2; do
	grep -q "^tprof-analyze: warning: $D/host/$l: a symbolic link to a directory; not followed" \
		"$T/err" && named=$((named + 1))
done
[ $named -eq 3 ]
ok $? "each link to a directory is named, not followed"
[ "$(grep -c "warning" "$T/err")" -eq 5 ]
ok $? "five warnings: three links, a link to nothing, one directory too deep"
grep -q "^tprof-analyze: warning: $D/host/gone.1.2.tpf: a symbolic link to nothing" "$T/err"
ok $? "the link to nothing is named in a warning"
grep -q "^tprof-analyze: warning: $D/host/a/b/c/d/e/f/g/h: more than 8 levels below" "$T/err"
ok $? "so is the directory 9 levels down"
grep -q "^  unreadable:  2 files not read, or not to the end: .*gone.1.2.tpf" "$T/sum"
ok $? "the summary's header names what was not read"
timeout 60 "$ANALYZE" "$D" --summary --summary-format json 2>/dev/null |
	"$PY" -B "$CHECKS" unreadable-listed /dev/stdin
ok $? "and so does the JSON summary"
timeout 60 "$ANALYZE" "$D" --format chrome -o "$T/t.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" two-processes "$T/t.json"
ok $? "the Chrome trace has the 2 processes once each"
timeout 60 "$ANALYZE" "$D" --summary -v 2>&1 >/dev/null | grep -q "already read under another name"
ok $? "the file's other names are said under -v"
finish
