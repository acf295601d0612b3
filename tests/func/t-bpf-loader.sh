#!/bin/sh
# The BPF loader (ebpf/) on a real kernel: a followed child's CPU samples with user stacks,
# its threads' scheduling states, the lifecycle of its threads and of a grandchild, nothing
# of an unfollowed sibling, nothing lost; and the reason it gives when not permitted.
. "$(dirname "$0")/lib.sh"
PROG="$top_builddir/tests/apps/bpf-follow"
[ "${BPF_STATUS:-}" = yes ] ||
	skip_all "tprof was built without BPF: configure said ${BPF_STATUS:-nothing}"
[ "$(id -u)" -eq 0 ] ||
	skip_all "not root: loading BPF programs needs root (or CAP_BPF and CAP_PERFMON)"
plan 10

"$PROG" run 199 >"$T/events" 2>"$T/stderr"
ok $? "the loader opens, follows the child and closes"
[ -s "$T/stderr" ] && diag "stderr:" "$(head -20 "$T/stderr")"
grep -q '^pids ' "$T/events" || diag "$(head -3 "$T/events")"

E="$T/events"
pycheck "CPU samples of the spinning child, in the run's time span, with user frames" \
	child-samples "$E"
pycheck "nothing of the unfollowed sibling or of the parent" only-followed "$E"
pycheck "the sleeping thread: created, sleeping, exited" sleeping-thread "$E"
pycheck "the child: running, stopped once, exited; its exit and rename as TASK records" \
	child-life "$E"
pycheck "the grandchild: created by the child, exec of true, exit" grandchild "$E"
pycheck "a thread leaves a CPU to wait only after it ran there, and runs only once at a time" \
	switches "$E"
pycheck "no event lost" none-lost "$E"

# Not root: the loader declines with the reason, and its caller goes on.
setpriv --reuid=nobody --regid=nogroup --clear-groups "$PROG" open >"$T/nobody" 2>&1
rc=$?
ok "$([ "$rc" -eq 3 ] && echo 0 || echo 1)" "as nobody, the loader declines (exit $rc)"
check "as nobody, the reason says what is needed" grep -qx \
	'not permitted to load BPF programs (needs root, or CAP_BPF and CAP_PERFMON)' "$T/nobody"
[ "$rc" -eq 3 ] || diag "$(head -5 "$T/nobody")"
finish
