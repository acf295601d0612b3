#!/bin/sh
# Load and faults, every loss counted: 64 threads start threads of their own and fork children
# (which fork once more), all recording into a tiny spool (TPROF_SPOOL_MB=1) on a disk that
# fills while they record (a tmpfs of 1.5 MB, mounted in a mount namespace of the
# test's own: as root, or in a user namespace otherwise), and children are killed with
# SIGKILL at random moments.  Each process counts what it asked the recorder for (apps/
# loadfault.c); for every process the profile's records plus those it counts as lost equal
# what the process made, exactly (a process killed in the middle of a call may or may not
# have made that call's record: between its calls ended and its calls begun).  Then, on the
# disk full from the start, processes that can create no files at all count their losses in
# marker files.  Both profiles, analyzed by 3 analysis processes under mpirun (--parallel),
# give the serial analyzer's summary, the images without files included.
. "${top_srcdir}/tests/func/lib.sh"
mount_ns ||
	skip_all "cannot make a mount namespace ($NS) for a small tmpfs: no unshare(1), not root"
plan 10
# In the sanitizer build a child forked while other threads allocate inherits the sanitizer
# allocator's lock held (gcc 12's runtime has no fork handler for it) and hangs: there each
# process forks when its other threads have ended.  A hang is a failure, never a stall.
FORK_ALONE=0
if [ "${SANITIZERS:-no}" = yes ]; then
	FORK_ALONE=1
	diag "sanitizer build: processes fork when their other threads have ended"
fi

rnd() { od -An -N2 -tu2 /dev/urandom | tr -d ' '; }
mkdir -p "$T/counts" "$T/counts2" "$T/disk"
KB=${LOADFAULT_DISK_KB:-1500}
# The whole run inside the namespace: the tmpfs is gone when it ends, the files copied out.
cat >"$T/inner.sh" <<INNER
mount -t tmpfs -o size=${KB}k,mode=0755 tmpfs "$T/disk" || exit 90
LOADFAULT_FORK_ALONE=$FORK_ALONE TPROF_SPOOL_MB=1 TPROF_BUFFER_KB=16 TPROF_ENABLE=1 \
	TPROF_OUTPUT_DIR="$T/disk/out" LD_PRELOAD="$PRELOAD_ENV" \
	"$APPS/loadfault" "$T/counts" 64 600 6 >"$T/app.out" 2>"$T/app.err" &
app=\$!
(sleep 300; kill -KILL \$app) >/dev/null 2>&1 &
for k in 1 2 3; do
	sleep 0.\$(printf %03d \$(( \$(od -An -N2 -tu2 /dev/urandom) % 150 )))
	victim=\$(for p in \$(ls "$T/counts" | grep -vx "\$app"); do kill -0 \$p 2>/dev/null && echo \$p; done | shuf -n 1)
	[ -n "\$victim" ] && kill -KILL "\$victim" 2>/dev/null && echo "\$victim" >>"$T/killed"
done
touch "$T/killed"
wait \$app
echo \$? >"$T/app.rc"
# the children of killed children live on: every process ends before the profile is read
n=0
for pid in \$(ls "$T/counts"); do
	while kill -0 "\$pid" 2>/dev/null && [ \$n -lt 1200 ]; do sleep 0.05; n=\$((n + 1)); done
	kill -KILL "\$pid" 2>/dev/null && echo "\$pid did not end" >>"$T/app.err"
done
df -k "$T/disk" | tail -1 >"$T/df"
# the disk full from the start: no process can create its files, each leaves its marker
dd if=/dev/zero of="$T/disk/fill" bs=4k 2>/dev/null
LOADFAULT_FORK_ALONE=$FORK_ALONE TPROF_SPOOL_MB=1 TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$T/disk/out2" \
	LD_PRELOAD="$PRELOAD_ENV" timeout -s KILL 600 "$APPS/loadfault" "$T/counts2" 4 100 2 >"$T/app2.out" 2>"$T/app2.err"
echo \$? >"$T/app2.rc"
cp -a "$T/disk/out" "$T/out"
cp -a "$T/disk/out2" "$T/out2"
INNER
$NS sh "$T/inner.sh"
rc=$?
ok $rc "a ${KB} KB tmpfs mounted in a mount namespace and the run made there (status $rc)"
check "the program ran to its end (status 0)" grep -qx 0 "$T/app.rc"
diag "disk at the end: $(cat "$T/df" 2>/dev/null)" "killed: $(tr '\n' ' ' <"$T/killed" 2>/dev/null)"
"$ANALYZE" "$T/out" --summary=json >"$T/sum.json" 2>"$T/analyze.err"
ok $? "the profile is analyzed"
[ -s "$T/sum.json" ] || diag "$(head -20 "$T/analyze.err" "$T/app.err")"

"$PY" -B "$CHECKS" every-record-counted "$T/sum.json" "$T/counts" "$T/killed" "$T/tally"
ok $? "for every process, recorded + counted as lost == made, exactly"
read -r NPROC FULL <"$T/tally" 2>/dev/null
test "${NPROC:-0}" -ge 10
ok $? "the program forked children and grandchildren (${NPROC:-0} processes)"
test "${FULL:-0}" -gt 0
ok $? "the disk filled while recording (${FULL:-0} records lost to it)"

"$ANALYZE" "$T/out2" --summary=json >"$T/sum2.json" 2>"$T/analyze2.err"
grep -qx 0 "$T/app2.rc" && test -s "$T/sum2.json"
ok $? "on a disk full from the start the program runs (status $(cat "$T/app2.rc" 2>/dev/null)) and the profile is analyzed"
[ -s "$T/sum2.json" ] || diag "$(head -5 "$T/analyze2.err" "$T/app2.err")"
"$PY" -B "$CHECKS" markers-exact "$T/sum2.json" "$T/counts2"
ok $? "every process left a marker file whose count is what it made, exactly"

if [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ]; then
	for d in out out2; do
		# shellcheck disable=SC2086
		"$ANALYZE" "$T/$d" --summary >"$T/$d.text" 2>/dev/null &&
			"$ANALYZE" "$T/$d" --summary=json >"$T/$d.json" 2>/dev/null &&
			$MPIRUN $MPIRUN_FLAGS -np 3 "$ANALYZE" --parallel "$T/$d" --summary \
				>"$T/$d.3.text" 2>"$T/$d.3.err" &&
			$MPIRUN $MPIRUN_FLAGS -np 3 "$ANALYZE" --parallel "$T/$d" --summary=json \
				>"$T/$d.3.json" 2>>"$T/$d.3.err" &&
			cmp -s "$T/$d.text" "$T/$d.3.text" && cmp -s "$T/$d.json" "$T/$d.3.json"
		ok $? "$d: 3 analysis processes (--parallel) write the serial summary, with its $(grep -c "no files of its own" "$T/$d.text") images without files"
		diff "$T/$d.text" "$T/$d.3.text" | head -5 | sed 's/^/# /'
	done
else
	skips 2 "no mpirun (configure found none; on Debian: apt-get install openmpi-bin)"
fi
finish
