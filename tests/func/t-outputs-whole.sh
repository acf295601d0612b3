#!/bin/sh
# Outputs are whole or absent, in every format (Chrome plain and gzipped, Perfetto, SQLite,
# OTF2, a split trace): a full disk (a small tmpfs) leaves neither the output nor a temporary,
# and an earlier output as it was; SIGKILL at a random moment of a large write leaves nothing
# under the output's name but a recognisable temporary, which the next run removes;
# SIGINT, SIGTERM and SIGHUP remove the temporary and kill the analyzer with the signal; what
# may be at the output's name (an earlier output of tprof, nothing else) is the same for every
# format.  Outputs are checked with the real readers (python3 json, pftrace.py, sqlite3,
# otf2-print) and against a reference written undisturbed.
#
# A full disk is a small tmpfs mounted on the output's directory.  Run by another user than
# root, the test runs itself again as the root of a user and mount namespace of its own
# (unshare -Urm), where it may mount one; where neither is possible, those cases are skipped
# and say why.
if [ "$(id -u)" -ne 0 ] && [ -z "${TPROF_TEST_USERNS:-}" ] && unshare -Urm true 2>/dev/null; then
	TPROF_TEST_USERNS=1 exec unshare -Urm /bin/sh "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
command -v sqlite3 >/dev/null || skip_all "no sqlite3 shell (on Debian: apt-get install sqlite3)"
[ "${PROTOC:-no}" != no ] || skip_all "no protoc (on Debian: apt-get install protobuf-compiler)"
GEN="$top_builddir/tests/tools/mk-chrome-trace"
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
FORMATS="chrome gz perfetto sqlite otf2 split"
plan 46

# Inputs: large enough that writing takes a while (SQLite, the slowest writer, gets less), and
# a small one for the earlier outputs a full disk must leave alone.
"$GEN" -n 150000 -o "$T/big.json" >/dev/null && "$GEN" -n 30000 -o "$T/mid.json" >/dev/null &&
	"$GEN" -n 300 -o "$T/small.json" >/dev/null || { echo "Bail out! mk-chrome-trace"; exit 1; }

# name FORMAT: the output's file name; input FORMAT: the large input it is written from;
# opts FORMAT: the options that write it.
name() {
	case $1 in
	chrome) echo t.json ;; gz) echo t.json.gz ;; perfetto) echo t.pftrace ;;
	sqlite) echo t.db ;; otf2) echo t.otf2 ;; split) echo t.json.gz ;;
	esac
}
input() { if [ "$1" = sqlite ]; then echo "$T/mid.json"; else echo "$T/big.json"; fi; }
opts() {
	case $1 in
	chrome | gz) echo "-f chrome" ;; split) echo "-f chrome --split size:0.3" ;;
	*) echo "-f $1" ;;
	esac
}
# run FORMAT INPUT DIR [ARGS]: writes INPUT's trace as FORMAT into DIR (stderr: $T/err).
run() {
	_f=$1 _i=$2 _d=$3
	shift 3
	# shellcheck disable=SC2046
	"$ANALYZE_ONLY" --import "$_i" $(opts "$_f") -o "$_d/$(name "$_f")" "$@" 2>"$T/err"
}
# start FORMAT INPUT DIR [ENV...]: the same in the background, the analyzer's pid in $!.
start() {
	_f=$1 _i=$2 _d=$3
	shift 3
	# shellcheck disable=SC2046
	(exec env "$@" "$ANALYZE_ONLY" --import "$_i" $(opts "$_f") -o "$_d/$(name "$_f")" 2>"$T/err") &
}
# files FORMAT DIR: the names the output of FORMAT has in DIR, one a line (a split trace:
# its index and its parts).
files() {
	if [ "$1" = split ]; then
		ls "$2" | grep -E '^t\.(index\.json|part-[0-9]+\.json\.gz)$'
	else
		ls "$2" | grep -Fx "$(name "$1")"
	fi
}
# digest FORMAT DIR: what the output of FORMAT in DIR holds, read by its own reader; fails
# when the reader does.  (An imported process's instance, in the database, is random.)
digest() {
	_p="$2/$(name "$1")"
	case $1 in
	chrome | gz) "$PY" -B "$CHECKS" read-chrome "$_p" && cksum <"$_p" ;;
	perfetto) cksum <"$_p" ;;
	sqlite) [ "$(sqlite3 "$_p" 'PRAGMA integrity_check')" = ok ] &&
		sqlite3 "$_p" .dump | sed "s/'[0-9a-f]\{16\}'/'instance'/g" | cksum ;;
	otf2) otf2_print "$_p/traces.otf2" "$T/o2" && cat "$T/o2" "$T/o2.defs" | cksum ;;
	split) "$PY" -B "$CHECKS" read-split "$2" &&
		for _x in $(files split "$2"); do cksum <"$2/$_x"; done ;;
	esac
}
# only_temps FORMAT DIR: everything in DIR is a temporary of the output, named as such.
only_temps() {
	_n=$(name "$1")
	for _x in $(ls -A "$2"); do
		case $_x in
		"$_n".tprof-tmp-*) ;;
		t.index.json.tprof-tmp-* | t.part-[0-9]*.json.gz.tprof-tmp-*) [ "$1" = split ] || return 1 ;;
		*) return 1 ;;
		esac
	done
}
# started DIR: waits (60 s at most) until something appears in DIR.
started() {
	_i=0
	while [ -z "$(ls -A "$1")" ]; do
		[ "$_i" -ge 600 ] && return 1
		sleep 0.1
		_i=$((_i + 1))
	done
}

# ---- the references, written undisturbed, read by the real readers ---------------------
# wtime.FORMAT: how long writing took (ms, from the output's appearance to the exit), for
# the moments of the kills below.
now() { date +%s%N; }
for f in $FORMATS; do
	mkdir "$T/ref-$f"
	start "$f" "$(input "$f")" "$T/ref-$f"
	pid=$!
	started "$T/ref-$f"
	t1=$(now)
	wait "$pid" && echo $((($(now) - t1) / 1000000)) >"$T/wtime.$f" &&
		digest "$f" "$T/ref-$f" >"$T/ref.$f" &&
		if [ "$f" = perfetto ]; then "$PY" "$PFTRACE" compare --flows-outside-slices \
			"$T/ref-$f/t.pftrace" "$T/ref-chrome/t.json" >/dev/null; fi
	ok $? "$f: written undisturbed, read back by its reader (written in $(cat "$T/wtime.$f") ms)"
done

# ---- a full disk -------------------------------------------------------------------------
full="$T/full"
mkdir "$full"
if [ "$(id -u)" -ne 0 ]; then
	for f in $FORMATS $FORMATS; do
		skip "$f: full disk: needs root, or user namespaces (unshare -Urm), to mount a small tmpfs"
	done
	mounted=no
elif ! mount -t tmpfs -o size=1m tmpfs "$full" 2>"$T/mount.err"; then
	diag "mount: $(cat "$T/mount.err")"
	for f in $FORMATS $FORMATS; do skip "$f: full disk: cannot mount a tmpfs here"; done
	mounted=no
else
	mounted=yes
	trap 'umount "$full" 2>/dev/null; rm -rf "$T"' EXIT
	umount "$full"
fi
if [ "$mounted" = yes ]; then
	for f in $FORMATS; do
		# every output is larger than its file system; the earlier (small) one fits
		case $f in perfetto) size=256k ;; sqlite) size=1m ;; *) size=512k ;; esac
		mount -t tmpfs -o size=$size tmpfs "$full"
		run "$f" "$(input "$f")" "$full"
		rc=$?
		[ "$rc" -eq 1 ] && grep -q "/t\.[a-z0-9.-]* was not written" "$T/err" &&
			grep -q "No space left on device\|disk is full" "$T/err" && [ -z "$(ls -A "$full")" ]
		r=$?
		ok $r "$f: full disk: status 1 (got $rc), said why, neither the output nor a temporary left"
		[ $r -eq 0 ] || diag "left: $(ls -A "$full" | head -5 | tr '\n' ' ')" "$(head -3 "$T/err")"
		run "$f" "$T/small.json" "$full" && digest "$f" "$full" >"$T/small.$f" &&
			ls -A "$full" >"$T/small.ls" &&
			run "$f" "$(input "$f")" "$full"
		rc=$?
		[ "$rc" -eq 1 ] && [ "$(digest "$f" "$full")" = "$(cat "$T/small.$f")" ] &&
			[ "$(ls -A "$full")" = "$(cat "$T/small.ls")" ]
		ok $? "$f: full disk over an earlier output: status 1 (got $rc), the earlier one as it was, nothing else"
		umount "$full"
	done
fi

# ---- SIGKILL at a random moment of the write --------------------------------------------
# rand MS: a delay from 0 to MS milliseconds, in seconds.
rand() { od -An -N2 -tu2 /dev/urandom | awk -v ms="$1" '{ printf "%.3f", $1 / 65536 * ms / 1000 }'; }
for f in $FORMATS; do
	d="$T/kill-$f"
	mkdir "$d"
	start "$f" "$(input "$f")" "$d"
	pid=$!
	started "$d"
	delay=$(rand "$(cat "$T/wtime.$f")")
	sleep "$delay"
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	if [ -n "$(files "$f" "$d")" ]; then
		[ "$(digest "$f" "$d")" = "$(cat "$T/ref.$f")" ]
		ok $? "$f: SIGKILL ${delay}s after the output began (status $rc): the output is complete"
	else
		only_temps "$f" "$d"
		ok $? "$f: SIGKILL ${delay}s after the output began (status $rc): nothing under the output's name, only its temporary"
	fi
	diag "left by the killed run: $(ls -A "$d" | tr '\n' ' ')"
	ls -A "$d" | grep -q "^t.*\.tprof-tmp-" && left=$(ls -A "$d" | grep -m1 "\.tprof-tmp-")
	run "$f" "$(input "$f")" "$d" && [ "$(digest "$f" "$d")" = "$(cat "$T/ref.$f")" ] &&
		[ -z "$(ls -A "$d" | grep -v -x "$(files "$f" "$d")")" ]
	ok $? "$f: the next run writes it whole and removes what the killed run left"
done

# A temporary is removed only when the process that made it, on this host, is gone: one of
# a live process and one of another host stay.  This host's hash is in what a killed run
# left; when every killed run above had finished its output, one is killed while its
# complete output waits under the temporary name.
if [ -z "${left:-}" ]; then
	d="$T/host"
	mkdir "$d"
	start chrome "$T/small.json" "$d" TPROF_TEST_OUTPUT_PAUSE_MS=30000
	pid=$!
	i=0
	while ! ls -A "$d" | grep -q "\.tprof-tmp-" && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid"
	left=$(ls -A "$d" | grep -m1 "\.tprof-tmp-")
	rm -r "$d"
fi
host=$(echo "${left:-}" | sed -n 's/.*\.tprof-tmp-\([0-9a-f]\{8\}\)-[0-9]*-.*/\1/p')
other=$(printf '%08x' $(((0x${host:-0} + 1) % 4294967296)))
d="$T/stale"
mkdir "$d"
sh -c 'echo $$ >"$1"' sh "$T/dead.pid"
: >"$d/t.json.tprof-tmp-$host-$(cat "$T/dead.pid")-aaaaaa"
: >"$d/t.json.tprof-tmp-$host-$$-bbbbbb"
: >"$d/t.json.tprof-tmp-$other-$(cat "$T/dead.pid")-cccccc"
run chrome "$T/small.json" "$d"
[ $? -eq 0 ] && [ -n "$host" ] && [ "$(ls "$d" | wc -l)" -eq 3 ] && [ -f "$d/t.json" ] &&
	[ -e "$d/t.json.tprof-tmp-$host-$$-bbbbbb" ] &&
	[ -e "$d/t.json.tprof-tmp-$other-$(cat "$T/dead.pid")-cccccc" ]
r=$?
ok $r "only the temporary of a process of this host that is gone is removed (host ${host:-unknown})"
[ $r -eq 0 ] || diag "$(ls "$d")"

# ---- SIGINT, SIGTERM, SIGHUP -------------------------------------------------------------
# The analyzer is started with the default actions (a background job of a shell ignores
# SIGINT); it removes what it was writing and dies of the signal.  The signal comes at a
# random moment of the write; a complete output waits under its temporary name
# (TPROF_TEST_OUTPUT_PAUSE_MS), so that however loaded the machine, the signal finds the
# output being written.
for pair in INT:gz TERM:sqlite HUP:otf2 INT:split; do
	sig=${pair%:*} f=${pair#*:}
	case $sig in INT) n=2 ;; TERM) n=15 ;; HUP) n=1 ;; esac
	d="$T/sig-$sig-$f"
	mkdir "$d"
	cp -r "$T/ref-$f/." "$d/"       # an earlier output, which must stay as it was
	before=$(digest "$f" "$d")
	ls -A "$d" >"$T/before.ls"
	start "$f" "$(input "$f")" "$d" --default-signal TPROF_TEST_OUTPUT_PAUSE_MS=30000
	pid=$!
	i=0
	while ! ls -A "$d" | grep -q "\.tprof-tmp-\|\.tmp-" && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	delay=$(rand $(($(cat "$T/wtime.$f") / 2)))
	sleep "$delay"
	kill -"$sig" "$pid" 2>/dev/null
	wait "$pid"
	rc=$?
	[ "$rc" -eq $((128 + n)) ] && [ "$(digest "$f" "$d")" = "$before" ] &&
		[ "$(ls -A "$d")" = "$(cat "$T/before.ls")" ]
	ok $? "$f: SIG$sig ${delay}s into the write: killed by it (status $rc), no temporary left, the earlier output as it was"
done
# A signal ignored when the analyzer starts stays ignored.
d="$T/ign"
mkdir "$d"
trap '' INT
start gz "$T/big.json" "$d"
pid=$!
trap - INT
started "$d"
kill -INT "$pid" 2>/dev/null
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] && [ "$(digest gz "$d")" = "$(cat "$T/ref.gz")" ]
ok $? "SIGINT ignored from the start: the output is written whole (status $rc)"

# ---- what may be at the output's name -----------------------------------------------------
d="$T/names"
mkdir "$d"
printf 'notes\n' >"$d/t.json"
run chrome "$T/small.json" "$d"
rc=$?
[ $rc -eq 2 ] && grep -q "t.json: exists and is not a Chrome trace tprof wrote; not replacing it" \
	"$T/err" && [ "$(cat "$d/t.json")" = notes ]
ok $? "chrome: another file under the name is refused before reading (status $rc), left as it was"
rm "$d/t.json"
run chrome "$T/small.json" "$d" && chmod 600 "$d/t.json" && run chrome "$T/big.json" "$d" &&
	[ "$(digest chrome "$d")" = "$(cat "$T/ref.chrome")" ] && [ "$(stat -c %a "$d/t.json")" = 600 ]
ok $? "chrome: an earlier trace of tprof is replaced, its permissions kept"
run perfetto "$T/small.json" "$d" && run perfetto "$T/big.json" "$d" &&
	[ "$(digest perfetto "$d")" = "$(cat "$T/ref.perfetto")" ]
ok $? "perfetto: an earlier trace of tprof is replaced"
cp "$d/t.json" "$d/t.pftrace"
run perfetto "$T/small.json" "$d"
[ $? -eq 2 ] && grep -q "not a Perfetto trace tprof wrote" "$T/err" && cmp -s "$d/t.json" "$d/t.pftrace"
ok $? "perfetto: a Chrome trace under the name is refused, left as it was"
run otf2 "$T/small.json" "$d" && run otf2 "$T/big.json" "$d" &&
	[ "$(digest otf2 "$d")" = "$(cat "$T/ref.otf2")" ] && [ -z "$(ls "$d" | grep tprof-tmp)" ]
ok $? "otf2: an earlier archive of tprof is replaced whole, the old one removed"
mkdir "$d/mine.otf2" && cp "$d/t.otf2/traces.otf2" "$d/mine.otf2/" && echo keep >"$d/mine.otf2/notes"
"$ANALYZE" --import "$T/small.json" -f otf2 -o "$d/mine.otf2" 2>"$T/err"
[ $? -eq 2 ] && grep -q "not empty" "$T/err" && [ "$(cat "$d/mine.otf2/notes")" = keep ]
ok $? "otf2: a directory that holds more than an archive is refused, left as it was"
ln -s t.json "$d/link.json"
"$ANALYZE" --import "$T/small.json" -o "$d/link.json" 2>"$T/err"
[ $? -eq 2 ] && grep -q "symbolic link" "$T/err" && [ -L "$d/link.json" ] &&
	[ "$(digest chrome "$d")" = "$(cat "$T/ref.chrome")" ]
ok $? "a symbolic link under the name is refused, neither it nor what it points to touched"
"$ANALYZE" --import "$T/small.json" -o /dev/null 2>"$T/err"
ok $? "/dev/null takes a trace directly"
: >"$d/afile"
"$ANALYZE" --import "$T/small.json" -f sqlite -o "$d/afile/such/x.db" 2>"$T/err"
[ $? -eq 2 ] && grep -q "cannot write $d/afile/such/x.db: Not a directory" "$T/err"
ok $? "a directory that cannot be made (a file is in the way): refused before reading (status 2), said"
[ -z "$(find "$T" -name '*.tprof-tmp-*' ! -path "$T/stale/*")" ]
ok $? "no temporary is left anywhere by the runs that ended"
finish
