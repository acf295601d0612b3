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
pycheck_in standin-nrt "every line is JSON; executions name their model, core and times" \
	executions "$T/trace"
# Never shorter; longer only by what the host scheduler took (not checked: a loaded machine).
pycheck_in standin-nrt "each execution lasts at least its model's run time (x the repeat \
count) from when it had its core" run-times "$T/trace"
pycheck_in standin-nrt "two threads on one NeuronCore never run at once" one-core "$T/trace"
# An execution that comes in while another core is busy starts without waiting for it.  (If
# the scheduler kept one thread from even calling until the other had finished, there is
# nothing to see: said, not failed.)
pycheck_in standin-nrt "two threads on two NeuronCores run at once" two-cores "$T/trace"

if [ "$tsan" = 1 ]; then
	STANDIN_NRT_TRACE_FILE="$T/tsan.%p" TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
		"$TSAN" >"$T/tsan.tap" 2>"$T/tsan.err"
	trc=$?
	ok "$trc" "the same under ThreadSanitizer: no race, every check passes"
	[ "$trc" -eq 0 ] || diag "$(grep -m 5 'WARNING\|^not ok' "$T/tsan.err" "$T/tsan.tap")"
fi
finish
