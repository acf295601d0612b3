#!/bin/sh
# Profiles are private: files 0600 and directories 0700 (0640 and 0750 when widened for the
# group), from the recorder, its sampler (the system image, the JIT maps copied beside it),
# tprof-inspect and tprof.torch's trace writer; created new, never through a link.  An output
# directory of another user, or one that its group or others may write to without the sticky
# bit, is refused, also behind a symbolic link: by tprof-inspect with exit status 2 and the
# command not run, by the recorder alone with one warning and the program unaffected; the
# same for tprof-inspect's numbered default directory and with --append or --replace (nothing
# of the other job removed).  Also run as an unprivileged user.  tprof-inspect says "profile
# written" only when one was.
. "$(dirname "$0")/lib.sh"
plan 36

# modes DIR: "path mode" for DIR and everything below it, sorted.
modes() { find "$1" -exec stat -c '%n %a' {} + | sed "s|^$1|.|" | sort; }
# only MODE_DIR MODE_FILE DIR: fails, listing them, on anything else.
only() {
	_bad=$(find "$3" \( -type d ! -perm "$1" \) -o \( -type f ! -perm "$2" \) -o \( ! -type d ! -type f \))
	[ -z "$_bad" ] || { diag "not $1/$2: $(for f in $_bad; do stat -c '%n %a' "$f"; done)"; return 1; }
}
count() { find "$1" -type f -name "$2" | wc -l; }

# ---- modes --------------------------------------------------------------------------------
# The recorder alone, its own system profile, a JIT map copied, missing parents made.  (sh
# makes the map and execs the program; it makes no system profile of its own, being gone
# long before TPROF_TEST_SAMPLE_LAZY_MS.)
out="$T/env/a/b"
export TPROF_TEST_SAMPLE_LAZY_MS=5000
TPROF_SAMPLE=all record_env "$out" sh -c 'printf "1000 10 jitted\n" >/tmp/perf-$$.map; exec "$0" "$@"' \
	"$APPS/marks" 2 100 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(count "$out" '*.tpf')" -eq 2 ] && [ "$(count "$out" '*.perf-*.map')" -eq 1 ]
ok $? "the recorder with TPROF_SAMPLE=all wrote its profile, the system image and a JIT map (status $rc)"
[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
for f in "$out"/*.perf-*.map; do rm -f "/tmp/perf-$(echo "$f" | sed 's/.*\.perf-\([0-9]*\)\.map/\1/').map"; done
only 700 600 "$T/env"
ok $? "recorder: directories 0700 (the missing parents too), files 0600: $(modes "$T/env" | tr '\n' ' ')"

# A process killed while it records leaves its spool: private too.
TPROF_BUFFER_KB=16 TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/killed" LD_PRELOAD="$PRELOAD_ENV" \
	"$APPS/marks" 1 400000000 >/dev/null 2>&1 &
pid=$!
wait_file "$T/killed" 20
i=0
while [ "$i" -lt 100 ] && [ "$(count "$T/killed" '*.spool')" -eq 0 ]; do sleep 0.1; i=$((i + 1)); done
kill -9 "$pid"
wait "$pid" 2>/dev/null
[ "$(count "$T/killed" '*.spool')" -eq 1 ] && only 700 600 "$T/killed"
ok $? "a killed process's spool and chunk file are 0600: $(modes "$T/killed" | tr '\n' ' ')"

"$INSPECT" -o "$T/ins" --sample all -- "$APPS/marks" 2 100 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(count "$T/ins" '*.tpf')" -eq 2 ] && only 700 600 "$T/ins"
ok $? "tprof-inspect --sample all: 0700 and 0600 (status $rc): $(modes "$T/ins" | tr '\n' ' ')"

"$INSPECT" -o "$T/grp/x" --group-readable --sample all -- "$APPS/marks" 2 100 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(count "$T/grp" '*.tpf')" -eq 2 ] && only 750 640 "$T/grp"
ok $? "tprof-inspect --group-readable: 0750 and 0640 (status $rc): $(modes "$T/grp" | tr '\n' ' ')"

# The numbered default directory (tprof-out-N, with its job's marker file) too.
mkdir "$T/cwd" "$T/cwd-grp"
(cd "$T/cwd" && "$INSPECT" -- "$APPS/marks" 2 100) >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(count "$T/cwd/tprof-out-1" '*.tpf')" -eq 1 ] &&
	[ "$(count "$T/cwd/tprof-out-1" '.tprof-job-*')" -eq 1 ] && only 700 600 "$T/cwd/tprof-out-1"
ok $? "tprof-inspect's default directory: 0700 and 0600, its marker too (status $rc): $(modes "$T/cwd/tprof-out-1" | tr '\n' ' ')"
(cd "$T/cwd-grp" && "$INSPECT" --group-readable -- "$APPS/marks" 2 100) >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(count "$T/cwd-grp/tprof-out-1" '*.tpf')" -eq 1 ] &&
	[ "$(count "$T/cwd-grp/tprof-out-1" '.tprof-job-*')" -eq 1 ] && only 750 640 "$T/cwd-grp/tprof-out-1"
ok $? "tprof-inspect --group-readable, the default directory: 0750 and 0640 (status $rc): $(modes "$T/cwd-grp/tprof-out-1" | tr '\n' ' ')"

TPROF_GROUP_READABLE=1 TPROF_SAMPLE=all record_env "$T/grp-env" "$APPS/marks" 2 100 >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(count "$T/grp-env" '*.tpf')" -eq 2 ] && only 750 640 "$T/grp-env"
ok $? "TPROF_GROUP_READABLE=1: 0750 and 0640 (status $rc): $(modes "$T/grp-env" | tr '\n' ' ')"

# tprof.torch's writer, without torch: the rewritten trace is created private, under a
# temporary name, and renamed over its destination: a link planted at that name is replaced,
# never written through.
mkdir "$T/py"
printf '[\n{"name": "a", "ph": "X", "ts": 1, "dur": 2, "pid": 1, "tid": 1}\n]\n' >"$T/py/src.json"
echo victim >"$T/py/victim"
ln -s "$T/py/victim" "$T/py/planted.json"
# pywrite SRC DST LINK: the modes of DST and of LINK rewritten from SRC (private.py).
pywrite() { PYTHONPATH="$top_srcdir/python" "$PY" -B "$CHECKS" rewrite-modes "$@"; }
r=$(pywrite "$T/py/src.json" "$T/py/out.json" "$T/py/planted.json" | tr '\n' ' ')
[ "$r" = "600 600 " ] && [ "$(cat "$T/py/victim")" = victim ] && [ "$(count "$T/py" '*tprof-tmp*')" -eq 0 ]
ok $? "tprof.torch's rewritten trace: 0600, and a link at its name replaced, not followed ($r)"
rm -f "$T/py/planted.json" && ln -s "$T/py/victim" "$T/py/planted.json"
r=$(TPROF_GROUP_READABLE=1 pywrite "$T/py/src.json" "$T/py/out2.json" "$T/py/planted.json" | tr '\n' ' ')
[ "$r" = "640 640 " ] && [ "$(cat "$T/py/victim")" = victim ]
ok $? "tprof.torch's rewritten trace with TPROF_GROUP_READABLE=1: 0640 ($r)"

# Every file the recorder and its sampler create: O_CREAT with O_EXCL and O_NOFOLLOW, 0600.
if ! command -v strace >/dev/null 2>&1; then
	skip "no strace (on Debian: apt-get install strace)"
elif ! strace -f -o /dev/null true 2>/dev/null; then
	skip "strace cannot trace here (ptrace not permitted)"
else
	TPROF_SAMPLE=all TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/traced" LD_PRELOAD="$PRELOAD_ENV" \
		strace -f -qq -e trace=open,openat,creat -o "$T/strace" \
		sh -c 'printf "1000 10 jitted\n" >/tmp/perf-$$.map; exec "$0" "$@"' "$APPS/marks" 2 100 \
		>"$T/out" 2>"$T/err"
	for f in "$T/traced"/*.perf-*.map; do rm -f "/tmp/perf-$(echo "$f" | sed 's/.*\.perf-\([0-9]*\)\.map/\1/').map"; done
	grep "\"$T/traced/" "$T/strace" | grep 'O_CREAT' >"$T/creates"
	n=$(wc -l <"$T/creates")
	bad=$(grep -v 'O_EXCL' "$T/creates"; grep -v 'O_NOFOLLOW' "$T/creates"; grep -v 'O_CLOEXEC' "$T/creates";
	      grep -v ', 0600) = ' "$T/creates")
	[ "$n" -eq 5 ] && [ -z "$bad" ] && [ "$(grep -c '\.spool"' "$T/creates")" -eq 2 ] &&
		grep -q '\.perf-[0-9]*\.map"' "$T/creates" && [ "$(grep -c '\.tpf"' "$T/creates")" -eq 2 ]
	ok $? "the recorder's and the sampler's $n files (chunk files, spools, JIT map) are created with O_EXCL|O_NOFOLLOW|O_CLOEXEC, 0600"
	[ -z "$bad" ] || diag "$bad"
	[ "$n" -eq 4 ] || diag "$(cat "$T/creates")"
fi

# ---- refused directories ------------------------------------------------------------------
mkdir "$T/others" "$T/world" "$T/group" "$T/sticky" "$T/mine"
chown 65534 "$T/others" 2>/dev/null && chmod 700 "$T/others"
chmod 777 "$T/world"
chmod 770 "$T/group"
chmod 1777 "$T/sticky"
ln -s "$T/world" "$T/to-world"
ln -s "$T/mine" "$T/to-mine"
for case in "others:owned by uid 65534 (not by you, uid 0, or root)" "world:writable by others and not sticky (mode 0777)" \
	"group:writable by its group and not sticky (mode 0770)" \
	"to-world:writable by others and not sticky (mode 0777)"; do
	d=$T/${case%%:*} why=${case#*:}
	if [ "${case%%:*}" = others ] && [ "$(stat -c %u "$d")" -ne 65534 ]; then
		skip "a directory of another user: cannot chown here (not root)"
		skip "a directory of another user: cannot chown here (not root)"
		skip "a directory of another user: cannot chown here (not root)"
		continue
	fi
	record_env "$d" "$APPS/threads" 2 50 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(cat "$T/out")" = "threads=2 iterations=50" ]
	ok $? "recorder, $d: the program's output and status (0) are unchanged (status $rc)"
	n=$(recorder_lines "$T/err")
	TPROF_SAMPLE=all record_env "$d" "$APPS/threads" 2 50 >"$T/out" 2>"$T/err2"
	n2=$(recorder_lines "$T/err2")
	[ "$n" -eq 1 ] && [ "$n2" -eq 1 ] &&
		grep -qF "warning: output directory $d: $why; not recording" "$T/err" &&
		[ -z "$(find "$d/" -mindepth 1)" ]
	ok $? "recorder, $d: one warning naming it and why, with and without TPROF_SAMPLE ($n, $n2 lines), nothing written"
	[ "$n" -eq 1 ] || diag "$(cat "$T/err")"
	rm -f "$T/ran"
	"$INSPECT" -o "$d" -- touch "$T/ran" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ ! -e "$T/ran" ] &&
		grep -qF "tprof-inspect: refusing output directory '$d': $why" "$T/err"
	ok $? "tprof-inspect -o $d: exit 2 (got $rc), the reason given, the command not run"
	[ "$rc" -eq 2 ] || diag "$(cat "$T/err")"
done
# Another job's profile in a directory others may write to: refused before --replace removes
# anything of it, and with --append.
mkdir "$T/shared"
"$INSPECT" -o "$T/shared" -- "$APPS/threads" 2 50 >"$T/out" 2>"$T/err"
chmod 777 "$T/shared"
before=$(ls -A "$T/shared" | sort | tr '\n' ' ')
for how in --replace --append; do
	rm -f "$T/ran"
	"$INSPECT" -o "$T/shared" $how -- touch "$T/ran" >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 2 ] && [ ! -e "$T/ran" ] && [ "$(count "$T/shared" '*.tpf')" -eq 1 ] &&
		[ "$(ls -A "$T/shared" | sort | tr '\n' ' ')" = "$before" ] &&
		grep -qF "tprof-inspect: refusing output directory '$T/shared': writable by others and not sticky (mode 0777)" "$T/err"
	ok $? "tprof-inspect -o DIR $how, DIR writable by others holding another job's profile: exit 2 (got $rc), nothing removed, the command not run"
	[ "$rc" -eq 2 ] || diag "$(cat "$T/err")"
done

for d in "$T/sticky" "$T/to-mine"; do
	"$INSPECT" -o "$d" -- "$APPS/threads" 2 50 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(count "$d/" '*.tpf')" -eq 1 ]
	ok $? "tprof-inspect -o $d (root's and sticky, or a link to one's own): accepted (status $rc)"
done
[ "$(count "$T/mine" '*.tpf')" -eq 1 ]
ok $? "through the link, the files are in the directory it leads to"

# ---- as an unprivileged user ---------------------------------------------------------------
U=$(mktemp -d "${TMPDIR:-/tmp}/tprof-test-user.XXXXXX")
trap 'rm -rf "$T" "$U"' EXIT
chmod 755 "$U"
asnobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1 || ! asnobody true 2>/dev/null; then
	for i in 1 2 3 4 5 6 7; do skip "running as another user needs root and setpriv"; done
elif ! asnobody test -x "$APPS/threads" -a -r "$PRELOAD"; then
	for i in 1 2 3 4 5 6 7; do skip "user nobody cannot reach the build tree ($top_builddir)"; done
else
	mkdir "$U/home" "$U/rootsticky" "$U/daemons"
	chown nobody:nogroup "$U/home"
	chmod 700 "$U/home"
	chmod 1777 "$U/rootsticky" "$U/daemons"
	chown daemon "$U/daemons"
	asnobody ln -s "$U/daemons" "$U/home/link"
	asnobody env TPROF_SAMPLE=all TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$U/home/out" \
		LD_PRELOAD="$PRELOAD_ENV" "$APPS/threads" 2 50 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(count "$U/home/out" '*.tpf')" -eq 2 ] && only 700 600 "$U/home/out" &&
		[ -z "$(find "$U/home/out" ! -user nobody)" ]
	ok $? "as nobody: the recorder writes its files, the user's, 0700 and 0600 (status $rc)"
	[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
	asnobody "$INSPECT" -o "$U/home/ins" --sample all -- "$APPS/threads" 2 50 >"$T/out" 2>"$T/err"
	rc=$?
	[ "$rc" -eq 0 ] && [ "$(count "$U/home/ins" '*.tpf')" -eq 2 ] && only 700 600 "$U/home/ins"
	ok $? "as nobody: tprof-inspect --sample all, 0700 and 0600 (status $rc)"
	[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
	asnobody env TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$U/rootsticky" LD_PRELOAD="$PRELOAD_ENV" \
		"$APPS/threads" 2 50 >"$T/out" 2>"$T/err"
	[ "$(count "$U/rootsticky" '*.tpf')" -eq 1 ] && [ "$(recorder_lines "$T/err")" -eq 0 ]
	ok $? "as nobody: root's sticky directory (as /tmp) is accepted"
	for d in "$U/daemons" "$U/home/link"; do
		asnobody env TPROF_SAMPLE=all TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$d" \
			LD_PRELOAD="$PRELOAD_ENV" "$APPS/threads" 2 50 >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" -eq 0 ] && [ "$(cat "$T/out")" = "threads=2 iterations=50" ] &&
			[ "$(recorder_lines "$T/err")" -eq 1 ] &&
			grep -qF "warning: output directory $d: owned by uid 1 (not by you, uid 65534, or root); not recording" "$T/err" &&
			[ -z "$(find "$U/daemons" -mindepth 1)" ]
		ok $? "as nobody, $d (another user's, sticky): the recorder says why once, writes nothing, the program is unaffected"
		[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
		asnobody "$INSPECT" -o "$d" -- touch "$U/home/ran" >"$T/out" 2>"$T/err"
		rc=$?
		[ "$rc" -eq 2 ] && [ ! -e "$U/home/ran" ] && grep -q "refusing output directory '$d': owned by uid 1" "$T/err"
		ok $? "as nobody, tprof-inspect -o $d: exit 2 (got $rc), the command not run"
	done
fi

# ---- what tprof-inspect reports -------------------------------------------------------------
# A chunk file of this job with its header alone (and no spool) is not a profile.
TPROF_JOB=5ca1ab1e record_env "$T/hdr-src" "$APPS/threads" 2 50 >"$T/out" 2>"$T/err"
src=$(find "$T/hdr-src" -name '*.tpf' | head -1)
TPROF_JOB=5ca1ab1e "$INSPECT" -o "$T/hdr" -- \
	sh -c 'head -c 64 "$0" >"$TPROF_OUTPUT_DIR/h.1.0000beef.tpf"' "$src" >"$T/out" 2>"$T/err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(count "$T/hdr" '*.tpf')" -eq 1 ] && grep -q "no profile data was written" "$T/err" &&
	! grep -q "profile written" "$T/err"
ok $? "tprof-inspect: a chunk file with no records is not reported as a profile written (status $rc)"
[ "$rc" -eq 0 ] || diag "$(cat "$T/err")"
finish
