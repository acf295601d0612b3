#!/bin/sh
# The stand-in libnrt.so.1 through the Neuron runtime's C API: runs test-nrt (which prints its
# own TAP) with the configuration it expects, then checks the trace file the stand-in wrote:
# one line per execution, as long as the model's run time, queued on one NeuronCore and
# overlapping on two.  Also the same test under ThreadSanitizer when it was built.
. "$top_srcdir/tests/func/lib.sh"
# lib.sh turns leak checking off for the recorder; the stand-in itself must not leak.
[ "${SANITIZERS:-no}" = yes ] && export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
unset NEURON_RT_VISIBLE_CORES STANDIN_NRT_EXEC_US STANDIN_NRT_INSTANCE
export STANDIN_NRT_CORES=4 NEURON_RT_VISIBLE_CORES=1-3
TEST_NRT="$top_builddir/tests/stand-ins/tests/test-nrt"
TSAN="$top_builddir/tests/stand-ins/tests/test-nrt-tsan"

STANDIN_NRT_TRACE_FILE="$T/trace.%p" "$TEST_NRT" >"$T/tap" 2>"$T/err"
rc=$?
# test-nrt's own TAP lines, renumbered after ours below.
n=$(grep -c '^\(not \)\{0,1\}ok ' "$T/tap")
tsan=0
[ -x "$TSAN" ] && tsan=1
plan $((n + 6 + tsan))
grep '^\(not \)\{0,1\}ok \|^#' "$T/tap" | while IFS= read -r line; do
	case $line in
	"#"*) echo "$line" ;;
	*) tap_n=$((tap_n + 1))
	   echo "$line" | sed "s/^\(not \)\{0,1\}ok [0-9]*/\1ok $tap_n/" ;;
	esac
done
tap_n=$n
tap_failed=$(grep -c '^not ok ' "$T/tap")
ok "$rc" "test-nrt exits with status 0"
[ "$rc" -eq 0 ] || diag "$(tail -n 5 "$T/err")"

pid_files=$(ls "$T" | grep -c '^trace\.[0-9][0-9]*$')
check "the trace file is per process (%p): the test and its forked child ($pid_files files)" \
	test "$pid_files" -eq 2

cat "$T"/trace.* >"$T/trace"
# The executions in the order they were called: the files come in the order of their pids'
# digits, and a forked child's pid can be the lower one (pids wrap).
PY_TRACE='
import json, sys, collections
lines = [json.loads(l) for l in open(sys.argv[1])]
loads = {l["model"]: l for l in lines if l["event"] == "load"}
ex = sorted((l for l in lines if l["event"] == "exec"), key=lambda l: l.get("entry_ns", 0))
by = collections.defaultdict(list)
for e in ex:
    by[e["model"]].append(e)
'
check "every line is JSON; executions name their model, core and times" py "$PY_TRACE
for e in ex:
    for k in ('model', 'nc', 'core', 'entry_ns', 'start_ns', 'end_ns', 'return_ns', 'status', 'ran', 'tid'):
        if k not in e: sys.exit('no %s in %s' % (k, e))
ran = [e for e in ex if e['ran']]
if len(ran) < 10: sys.exit('%d executions ran' % len(ran))
for e in ran:
    if not e['entry_ns'] <= e['start_ns'] < e['end_ns'] <= e['return_ns']: sys.exit('times %s' % e)
a = by['alpha']
# missing input, no output set, one execution, one repeated x3, the forked child's execution
if [e['status'] for e in a] != [1002, 2, 0, 0, 0] or [e['ran'] for e in a] != [False, False, True, True, True]:
    sys.exit('alpha statuses %s' % [e['status'] for e in a])
if [e['status'] for e in by['nan']] != [1003]: sys.exit('nan statuses %s' % by['nan'])
if a[0]['nc'] != 0 or a[0]['core'] != 1: sys.exit('alpha on vnc %d core %d, want 0 and 1' % (a[0]['nc'], a[0]['core']))
" "$T/trace"
# Never shorter; longer only by what the host scheduler took (not checked: a loaded machine).
check "each execution lasts at least its model's run time (x the repeat count) from when it had its core" py "$PY_TRACE
for e in ex:
    if not e['ran']: continue
    want = loads[e['model']]['exec_ns'] * e['repeat']
    got = e['end_ns'] - e['start_ns']
    if got < want: sys.exit('%s ran %d ns, want %d' % (e['model'], got, want))
if [e['repeat'] for e in by['alpha'] if e['ran']][:2] != [1, 3]: sys.exit('repeat counts')
" "$T/trace"
check "two threads on one NeuronCore never run at once" py "$PY_TRACE
s = sorted(by['same0'] + by['same1'], key=lambda e: e['start_ns'])
if len(s) != 6 or len({e['tid'] for e in s}) != 2: sys.exit('%d executions' % len(s))
for x, y in zip(s, s[1:]):
    if y['start_ns'] < x['end_ns']: sys.exit('overlap %s %s' % (x, y))
" "$T/trace"
# An execution that comes in while another core is busy starts without waiting for it.  (If
# the scheduler kept one thread from even calling until the other had finished, there is
# nothing to see: said, not failed.)
check "two threads on two NeuronCores run at once" py "$PY_TRACE
p, q = sorted([by['par0'][0], by['par1'][0]], key=lambda e: e['entry_ns'])
if sorted([p['core'], q['core']]) != [2, 3]: sys.exit('cores %d %d' % (p['core'], q['core']))
if q['entry_ns'] >= p['end_ns']:
    print('# the second thread called only after the first had finished: overlap not seen')
elif q['start_ns'] >= p['end_ns']: sys.exit('the second execution waited for the other core: %s %s' % (p, q))
" "$T/trace"

if [ "$tsan" = 1 ]; then
	STANDIN_NRT_TRACE_FILE="$T/tsan.%p" TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
		"$TSAN" >"$T/tsan.tap" 2>"$T/tsan.err"
	trc=$?
	ok "$trc" "the same under ThreadSanitizer: no race, every check passes"
	[ "$trc" -eq 0 ] || diag "$(grep -m 5 'WARNING\|^not ok' "$T/tsan.err" "$T/tsan.tap")"
fi
finish
