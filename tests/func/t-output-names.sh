#!/bin/sh
# tprof-analyze's output names, as a newcomer types them: -o alone chooses the format by the
# name's ending (read back by each format's own reader), a name of another format than
# --format's is refused before anything is read or written, missing directories above the
# output are made for every format (and removed again when the output fails), and without -o
# the trace is named after the profile directory's real name, in the current directory.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
plan 15

"$INSPECT" -o "$T/prof" -- "$APPS/threads" 2 200 >"$T/rec.out" 2>"$T/rec.err"
ok $? "a profile to analyze"

# ---- -o alone: the name's ending says the format ------------------------------------------
"$ANALYZE" "$T/prof" -o "$T/by-name.pftrace" 2>"$T/pf.err" &&
	grep -q "Perfetto trace written to $T/by-name.pftrace" "$T/pf.err" &&
	"$ANALYZE" "$T/prof" -f chrome -o "$T/ref.json" 2>/dev/null &&
	"$PY" "$top_srcdir/tests/tools/pftrace.py" compare "$T/by-name.pftrace" "$T/ref.json" >/dev/null
ok $? "-o X.pftrace: a Perfetto trace (protoc decodes it; it matches the Chrome trace)"

"$ANALYZE" "$T/prof" -o "$T/by-name.db" 2>"$T/db.err" &&
	[ "$(sqlite3 "$T/by-name.db" "select count(*) from slices")" -gt 0 ]
ok $? "-o X.db: an SQLite database (sqlite3 counts its slices)"

"$ANALYZE" "$T/prof" -o "$T/by-name.json.gz" 2>/dev/null &&
	"$PY" -B "$CHECKS" chrome-gzip "$T/by-name.json.gz" &&
	"$ANALYZE" "$T/prof" -o "$T/plain-name" 2>/dev/null &&
	"$PY" -B "$CHECKS" chrome-plain "$T/plain-name"
ok $? "-o X.json.gz and a name of no known ending: Chrome JSON, as before"

# ---- a name of another format: refused, nothing written -------------------------------------
refused() {
	_want=$1
	shift
	"$ANALYZE" "$T/prof" "$@" >"$T/ref.out" 2>"$T/ref.err"
	_rc=$?
	[ $_rc -eq 2 ] && grep -q -- "$_want" "$T/ref.err" && [ ! -e "$T/wrong.db" ] &&
		[ ! -e "$T/wrong.json" ] && [ ! -e "$T/wrong.pftrace.gz" ] && [ ! -e "$T/wrong.otf2" ]
}
refused "-o $T/wrong.db is a name for --format sqlite, not chrome: give --format sqlite, or -o a name ending in .json or .json.gz" \
	-f chrome -o "$T/wrong.db"
ok $? "--format chrome -o X.db: exit 2, saying which format the name is for and what to give"
refused "is a name for --format chrome, not perfetto" -f perfetto -o "$T/wrong.pftrace.gz" &&
	refused "is a name for --format chrome, not sqlite" -f sqlite -o "$T/wrong.json" &&
	refused "is a name for --format chrome, not otf2" -f otf2 -o "$T/wrong.json"
ok $? "perfetto to X.pftrace.gz, sqlite to X.json, otf2 to X.json: each refused"
refused "an OTF2 archive is a directory" -o "$T/wrong.otf2"
ok $? "-o X.otf2 without --format: refused (an archive is a directory, given with --format otf2)"

# ---- directories that do not exist yet ------------------------------------------------------
for f in chrome perfetto sqlite otf2 split; do
	case $f in
	chrome) args="-o $T/new/chrome/a/t.json.gz" ;;
	perfetto) args="-o $T/new/perfetto/a/t.pftrace" ;;
	sqlite) args="-o $T/new/sqlite/a/t.db" ;;
	otf2) args="-f otf2 -o $T/new/otf2/a/archive" ;;
	split) args="-f chrome --split size:0.01 -o $T/new/split/a/t.json" ;;
	esac
	"$ANALYZE" "$T/prof" $args >/dev/null 2>"$T/$f.err"
	rc=$?
	case $f in
	chrome) "$PY" -B "$CHECKS" json-gzip "$T/new/chrome/a/t.json.gz" ;;
	perfetto) "$PY" "$top_srcdir/tests/tools/pftrace.py" check "$T/new/perfetto/a/t.pftrace" >/dev/null ;;
	sqlite) sqlite3 "$T/new/sqlite/a/t.db" "select count(*) from slices" >/dev/null ;;
	otf2) otf2_print "$T/new/otf2/a/archive/traces.otf2" "$T/otf2.print" ;;
	split) "$PY" -B "$CHECKS" json-files \
		"$T/new/split/a/t.index.json" "$T/new/split/a/t.part-0001.json" ;;
	esac
	[ $? -eq 0 ] && [ $rc -eq 0 ]
	ok $? "$f: the directories above the output are made (status $rc), and its reader reads it"
	[ $rc -eq 0 ] || diag "$(tail -2 "$T/$f.err")"
done

# An output that fails leaves no directory it made: a full disk (a small tmpfs).
if ! mount_ns; then
	skip "a failed output: cannot make a mount namespace ($NS) for a small tmpfs"
else
	mkdir "$T/full"
	$NS sh -c 'mount -t tmpfs -o size=12k tmpfs "$1" || exit 90
		"$2" "$3" -f chrome -o "$1/x/y/t.json"; rc=$?
		[ -e "$1/x" ] && echo "left: $(find "$1/x")"
		exit $rc' sh "$T/full" "$ANALYZE" "$T/prof" >"$T/full.out" 2>"$T/full.err"
	rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 90 ] && [ ! -s "$T/full.out" ] && grep -q "was not written" "$T/full.err"
	ok $? "a full disk: the output fails (status $rc) and the directories made for it are gone"
	[ -s "$T/full.out" ] && diag "$(cat "$T/full.out")"
fi

# ---- without -o: the profile directory's real name, in the current directory ---------------
mkdir -p "$T/cwd" "$T/deep/where"
cp -r "$T/prof" "$T/deep/where/run7"
(cd "$T/deep/where/run7" && "$ANALYZE" . -f perfetto) 2>"$T/dot.err"
[ -s "$T/deep/where/run7/run7.pftrace" ] && [ ! -e "$T/deep/where/run7/..pftrace" ] &&
	grep -q "written to run7.pftrace" "$T/dot.err"
ok $? "'tprof-analyze . -f perfetto' inside run7: run7.pftrace (not ..pftrace)"
(cd "$T/cwd" && "$ANALYZE" "$T/deep/where/run7/" -f chrome) 2>"$T/cwd.err"
[ -s "$T/cwd/run7.json.gz" ] && [ ! -e "$T/deep/where/run7.json.gz" ]
ok $? "a profile elsewhere: NAME.json.gz in the current directory, not beside the profile"
finish
