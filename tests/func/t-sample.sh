#!/bin/sh
# tprof-inspect --sample with the /proc sampler (TPROF_SAMPLE_BPF=0, and as an unprivileged
# user, who may not load BPF programs; and looking for new processes through all of /proc
# instead of the children files): apps/sysload's known work must show in the system
# image (thread states, CPU time, RSS rising by the memory it touches, a fork + exec child,
# host memory and per-CPU busy shares; tools/sample-check.py), the command's output and
# status must not change, and bad --sample, --sample-hz, TPROF_SAMPLE and TPROF_SAMPLE_HZ
# values must name themselves.
. "$(dirname "$0")/lib.sh"
CHECK="$top_srcdir/tests/tools/sample-check.py"
[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
NCHECK=18
plan $((3 * (NCHECK + 4) + 14))
MIB=64

PLAIN=$T/plain.out
"$APPS/sysload" all $MIB 800 >"$PLAIN" 2>&1
plain_rc=$?

# run NAME [PREFIX...]: sysload under tprof-inspect --sample all, then its checks.
run() {
	_name=$1
	shift
	"$@" env SYSLOAD_RSS_FILE="$T/$_name.rss" "$INSPECT" --sample all -o "$T/$_name" -- \
		"$APPS/sysload" all $MIB 800 >"$T/$_name.out" 2>"$T/$_name.err"
	_rc=$?
	[ "$_rc" -eq "$plain_rc" ] && cmp -s "$PLAIN" "$T/$_name.out"
	ok $? "$_name: stdout and exit status ($_rc) as without tprof-inspect ($plain_rc)"
	grep -q '^tprof-inspect: system profile from /proc at 99 Hz, no CPU stacks (BPF: .*)$' \
		"$T/$_name.err"
	ok $? "$_name: one line says the profile comes from /proc, and why"
	grep -q "^tprof-inspect: profile written to $T/$_name (.*the system profile)\$" \
		"$T/$_name.err"
	ok $? "$_name: the profile count names the system profile"
	"$DUMP" "$T/$_name" >"$T/$_name.json" 2>"$T/$_name.dump.err"
	ok $? "$_name: dump-records reads the output directory"
	"$PY" "$CHECK" "$T/$_name.json" $MIB proc "$T/$_name.rss" >"$T/$_name.checks" 2>&1
	_n=0
	while IFS= read -r _line; do
		_n=$((_n + 1))
		case $_line in
		PASS\ *) ok 0 "$_name: ${_line#PASS }" ;;
		*) ok 1 "$_name: ${_line#FAIL }" ;;
		esac
	done <"$T/$_name.checks"
	while [ "$_n" -lt "$NCHECK" ]; do
		_n=$((_n + 1))
		ok 1 "$_name: check $_n did not run"
	done
	[ "$_n" -eq "$NCHECK" ] || diag "$(cat "$T/$_name.checks")"
}

TPROF_SAMPLE_BPF=0 run forced-proc env TPROF_SAMPLE_BPF=0
# New processes found through all of /proc, as on a kernel without the children files.
TPROF_SAMPLE_BPF=0 run no-children env TPROF_SAMPLE_BPF=0 TPROF_TEST_SAMPLE_NO_CHILDREN=1

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
	mkdir "$T/nobody" && chmod 777 "$T/nobody" && chmod 755 "$T"
	T_ROOT=$T
	T=$T/nobody
	run unprivileged setpriv --reuid=nobody --regid=nogroup --clear-groups
	T=$T_ROOT
else
	for _i in $(seq $((NCHECK + 4))); do
		skip "not root (or no setpriv, or no user nobody): the unprivileged run needs them"
	done
fi

# The summary's Counters table says host memory and RSS (hundreds of millions of bytes) as
# whole numbers with thousands separators, not 1.00897e+09.
"$ANALYZE" "$T/forced-proc" --summary >"$T/counters.txt" 2>/dev/null &&
	grep -Eq '^ +[0-9,]+ +[0-9]{1,3},[0-9]{3},[0-9]{3}(,[0-9]{3})? .* host memory used$' "$T/counters.txt" &&
	! sed -n '/^Counters/,/^$/p' "$T/counters.txt" | grep -Eq '[0-9]e[+-][0-9]'
ok $? "the Counters table: host memory as a whole number with separators, no exponent anywhere"
diag "$(grep 'host memory used$' "$T/counters.txt")"

# tprof-inspect's child before its exec is followed but not sampled: it takes no number, so
# the processes shown are 1, 2, ... in the summary and the Chrome trace alike.
"$ANALYZE" "$T/forced-proc" --summary=json >"$T/numbers.json" 2>/dev/null &&
	"$ANALYZE" "$T/forced-proc" -o "$T/numbers-chrome.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" numbered "$T/numbers.json" "$T/numbers-chrome.json"
ok $? "processes are numbered from 1 without a gap, in the summary and the Chrome trace alike"

# Bad values name themselves; exit 2 and the command does not run.
bad() {
	_what=$1
	shift
	"$@" >"$T/bad.out" 2>"$T/bad.err"
	_rc=$?
	[ "$_rc" -eq 2 ] && grep -q "^tprof-inspect: .*$_what" "$T/bad.err" && [ ! -e "$T/ran" ]
	ok $? "$* : exit 2 (got $_rc), the message names $_what"
	[ "$_rc" -eq 2 ] || diag "stderr: $(cat "$T/bad.err")"
}
bad "unknown word 'bogus'" "$INSPECT" --sample cpu,bogus -- touch "$T/ran"
bad "unknown word ''" "$INSPECT" --sample cpu, -- touch "$T/ran"
bad "'0' for --sample-hz" "$INSPECT" --sample cpu --sample-hz 0 -- touch "$T/ran"
bad "'10001' for --sample-hz" "$INSPECT" --sample-hz 10001 -- touch "$T/ran"
bad "TPROF_SAMPLE: unknown word 'nope'" env TPROF_SAMPLE=mem,nope "$INSPECT" -- touch "$T/ran"
bad "'5x' for TPROF_SAMPLE_HZ" env TPROF_SAMPLE=mem TPROF_SAMPLE_HZ=5x "$INSPECT" -- \
	touch "$T/ran"

# The environment gives what the options do not; the options win.
env TPROF_SAMPLE=mem TPROF_SAMPLE_HZ=7 "$INSPECT" -o "$T/env" -- true 2>"$T/env.err"
"$DUMP" "$T/env" | "$PY" -B "$CHECKS" mem-at-7hz /dev/stdin
ok $? "TPROF_SAMPLE=mem TPROF_SAMPLE_HZ=7: a system image of mem at 7 Hz"
! grep -q 'system profile from /proc' "$T/env.err"
ok $? "mem alone needs no BPF: no line about /proc"
env TPROF_SAMPLE=mem "$INSPECT" --sample sched -o "$T/opt" -- sh -c 'env > "$1"' sh "$T/opt.env" \
	2>/dev/null
"$DUMP" "$T/opt" | grep -q '"name":"sample","value":"sched"'
ok $? "--sample sched wins over TPROF_SAMPLE=mem"
! grep -q '^TPROF_SAMPLE=' "$T/opt.env"
ok $? "TPROF_SAMPLE is not passed on to the command when tprof-inspect samples"

# A JIT's symbol map is copied beside the system image, and the analyzer does not warn of it.
"$INSPECT" --sample sched -o "$T/jit" -- "$APPS/sysload" jitmap 100 >"$T/jit.out" 2>/dev/null
map=$(cat "$T/jit.out")
pid=${map#/tmp/perf-}
pid=${pid%.map}
image=$(ls "$T/jit/"*.tpf)
cmp -s "$map" "${image%.tpf}.perf-$pid.map"
ok $? "/tmp/perf-$pid.map is copied to ${image##*/} without .tpf, plus .perf-$pid.map"
rm -f "$map"
"$ANALYZE" "$T/jit" --summary >/dev/null 2>"$T/jit.err"
! grep -q 'perf-' "$T/jit.err"
ok $? "tprof-analyze reads the directory without a warning about the map"
finish
