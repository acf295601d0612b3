#!/bin/sh
# fork, fork+exec, exec of itself, exec with an environment stripped of TPROF_* and
# LD_PRELOAD, and 200 short-lived threads: every process image records to its own files,
# and every event lands in the right process and on its own thread's track.
. "$(dirname "$0")/lib.sh"
K=300
plan 14

# images DIR MODE: runs forkexec MODE under tprof-inspect into DIR and writes DIR.json.
images() {
	"$INSPECT" -o "$1" -- "$APPS/forkexec" "$2" "$K" >"$1.out" 2>"$1.err" &&
		"$ANALYZE" "$1" --format chrome -o "$1.json" 2>"$1.analyze.err"
}

# fork: parent and child each record, to files of their own.
images "$T/fork" fork
ok $? "fork: the program and the analyzer succeed"
ppid=$(sed -n 's/^parent pid=\([0-9]*\) child=\([0-9]*\) status=0$/\1/p' "$T/fork.out")
cpid=$(sed -n 's/^parent pid=\([0-9]*\) child=\([0-9]*\) status=0$/\2/p' "$T/fork.out")
ls "$T/fork" >"$T/fork.files"
[ -n "$ppid" ] && [ -n "$cpid" ] &&
	[ "$(grep -c "\.$ppid\.[0-9a-f]\{8\}\.tpf\$" "$T/fork.files")" -eq 1 ] &&
	[ "$(grep -c "\.$cpid\.[0-9a-f]\{8\}\.tpf\$" "$T/fork.files")" -eq 1 ] &&
	[ "$(grep -c '\.tpf$' "$T/fork.files")" -eq 2 ]
ok $? "fork: one trace file for the parent ($ppid) and one for the child ($cpid)"
pycheck "fork: two processes; the parent's $((2 * K)) ranges in the parent, the child's $K in \
the child" fork "$T/fork.json" "$K" "${ppid:-0}" "${cpid:-0}"

# fork, then exec in the child.
images "$T/fexec" fork-exec
ok $? "fork+exec: the program and the analyzer succeed"
ppid=$(sed -n 's/^parent pid=\([0-9]*\) child=\([0-9]*\) status=0$/\1/p' "$T/fexec.out")
cpid=$(sed -n 's/^parent pid=\([0-9]*\) child=\([0-9]*\) status=0$/\2/p' "$T/fexec.out")
grep -qx "leaf pid=$cpid" "$T/fexec.out"
ok $? "fork+exec: the exec'd child ran (its output is there)"
pycheck "fork+exec: the exec'd child's $K ranges are in a process of the child's pid" \
	fork-exec "$T/fexec.json" "$K" "${ppid:-0}" "${cpid:-0}"

# exec of itself: one pid, two process images, each with its own events.
for mode in exec exec-noenv; do
	images "$T/$mode" "$mode"
	ok $? "$mode: the program and the analyzer succeed"
	pid=$(sed -n 's/^before-exec pid=\([0-9]*\)$/\1/p' "$T/$mode.out")
	[ -n "$pid" ] && grep -qx "leaf pid=$pid" "$T/$mode.out" &&
		[ "$(ls "$T/$mode" | grep -c "\.$pid\.[0-9a-f]\{8\}\.tpf\$")" -eq 2 ]
	ok $? "$mode: the new image ran in the same process and wrote a trace file of its own"
	pycheck "$mode: $K ranges before the exec in one image, $K after it in the other" \
		exec-self "$T/$mode.json" "$K" "${pid:-0}"
done

# 200 short-lived threads, 20 at a time, 10 ranges each.
"$INSPECT" -o "$T/thr" -- "$APPS/forkexec" threads 200 >"$T/thr.out" 2>"$T/thr.err" &&
	grep -qx 'threads=200' "$T/thr.out" &&
	"$ANALYZE" "$T/thr" --format chrome -o "$T/thr.json" 2>"$T/thr.analyze.err"
ok $? "200 threads: the program and the analyzer succeed"
pycheck "200 threads: all 2000 ranges kept, each thread on a named track of its own" \
	threads "$T/thr.json"
finish
