#!/bin/sh
# scripts/try.sh, the way a newcomer tries tprof without a GPU (make try builds what it runs):
# for each runtime, run in a directory of its own with this build's tprof-inspect and
# tprof-analyze (first on PATH, so that an installed tprof is never the one tested), it must
# record the profile, print a summary holding what that runtime records and write a Chrome
# trace that python3's gzip and json modules read, with that runtime's events in it.  A
# runtime whose prerequisites are missing here is skipped with the line try.sh printed.  Then:
# a second run replaces the first profile, `all` goes on past a runtime that cannot run and
# says which ran, what is missing is one line and status 77, and the usage errors.
. "$(dirname "$0")/lib.sh"
TRY="$top_srcdir/scripts/try.sh"
PATH="$top_builddir/cli:$top_builddir/analyze:$PATH"
export PATH
unset LD_PRELOAD TPROF_ENABLE
RUNTIMES="hip mpi nccl neuron torch system"
plan 32

# try RUNTIME "SUMMARY-PATTERN..." "PH:CATEGORY:N...": try.sh RUNTIME in $T/RUNTIME and its
# four checks, or four skips saying what is missing.  ran: the runtimes that ran.
ran=""
try() {
	_r=$1
	mkdir "$T/$_r"
	(cd "$T/$_r" && "$TRY" "$_r" "$top_builddir") >"$T/$_r.out" 2>"$T/$_r.err"
	_rc=$?
	if [ "$_rc" -eq 77 ]; then
		_why=$(head -n 1 "$T/$_r.err")
		for _i in 1 2 3 4; do skip "$_why"; done
		return
	fi
	ok "$_rc" "try.sh $_r exits 0 (status $_rc)"
	[ "$_rc" -eq 0 ] && ran="$ran $_r"
	[ "$_rc" -eq 0 ] || diag "$(tail -n 20 "$T/$_r.err")"
	ls "$T/$_r/try-$_r/"*.tpf >/dev/null 2>&1 &&
		grep -q "^tprof-inspect: profile written to try-$_r " "$T/$_r/try-$_r.log"
	ok $? "$_r: the profile is in ./try-$_r"
	_pats=$2 _wants=$3
	# The kernel's probes (root, a build with BPF) sample CPU stacks; /proc, CPU times.
	if [ "$_r" = system ] && ! grep -q 'system profile from /proc' "$T/$_r/try-$_r.log"; then
		_pats="$_pats ^CPU.samples.by.function ratio_three" _wants="$_wants i:sample:20"
	fi
	_miss=""
	for _p in $_pats; do
		grep -Eq "$_p" "$T/$_r.out" || _miss="$_miss '$_p'"
	done
	ok_none_missing "$_miss" "$_r: the summary shows what the runtime records ($_pats)"
	# (a Chrome trace with at least 100 events, and at least N of each PH:CATEGORY:N)
	# shellcheck disable=SC2086 # the wanted counts are words
	"$PY" -B "$CHECKS" chrome-events "$T/$_r/try-$_r.json.gz" $_wants &&
		grep -q "try-$_r.json.gz at https://ui.perfetto.dev" "$T/$_r.out"
	ok $? "$_r: try-$_r.json.gz is a Chrome trace ($_wants), to open at ui.perfetto.dev"
}

try hip '^Kernels$ scale_a\(float\*,.int\) shift_b ^HIP.API' 'X:kernel:20 X:hip:20'
tools="tprof-inspect is $top_builddir/cli/tprof-inspect"
tools="$tools, tprof-analyze is $top_builddir/analyze/tprof-analyze"
[ "$(head -n 1 "$T/hip.out")" = "try: $tools" ]
ok $? "try.sh used this build's tprof-inspect and tprof-analyze"
try mpi '^MPI.collectives MPI_Bcast ^MPI.messages matched:.*[1-9][0-9]*.messages' \
	'X:mpi:50 s:mpi:10'
try nccl '^NCCL.collectives AllReduce ^NCCL.send/receive' 'X:collective:20 X:nccl:20'
try neuron '^NRT.models mlp-small conv-big ^NeuronCores:.busy' 'X:neuroncore:20 X:nrt:20'
try torch '^Steps$ ^Framework.ops' 'X:step:6 X:import:100'
try system '^CPU.utilisation.per.core ^Memory' 'C:counter:10'

# A second run in the same directory replaces the first profile.
case " $ran " in
*" neuron "*)
	(cd "$T/neuron" && "$TRY" neuron "$top_builddir") >"$T/again.out" 2>"$T/again.err" &&
		[ "$(find "$T/neuron/try-neuron" -name '*.tpf' | wc -l)" -eq 1 ]
	ok $? "a second try.sh neuron replaces the first profile (one .tpf in try-neuron)"
	;;
*) skip "neuron did not run" ;;
esac

# A runtime that cannot run: one line, status 77.
SYSTEM_PYTHON3="$T/no-python3" "$TRY" torch "$top_builddir" >/dev/null 2>"$T/nopy.err"
rc=$?
[ $rc -eq 77 ] && [ "$(wc -l <"$T/nopy.err")" -eq 1 ] &&
	grep -q "^try torch: cannot run: no $T/no-python3 .*scripts/install-deps.sh" "$T/nopy.err"
ok $? "without its python3, try.sh torch says so in one line and exits 77 (status $rc)"
mkdir "$T/nobuild"
"$TRY" neuron "$T/nobuild" >/dev/null 2>"$T/nobuild.err"
rc=$?
[ $rc -eq 77 ] && grep -q "^try neuron: cannot run: no $T/nobuild/tests/.*make try" "$T/nobuild.err"
ok $? "in a build tree without make try's programs, try.sh says to run make try, exit 77 ($rc)"

# all: the runtimes in turn, torch without its python3 this time.
mkdir "$T/all"
(cd "$T/all" && SYSTEM_PYTHON3="$T/no-python3" "$TRY" all "$top_builddir") >"$T/all.out" \
	2>"$T/all.err"
rc=$?
want_ran=$(echo "$ran" | sed 's/ torch//')
want_skipped=""
for r in $RUNTIMES; do
	case " $want_ran " in *" $r "*) ;; *) want_skipped="$want_skipped $r" ;; esac
done
want_rc=0
[ -n "$want_ran" ] || want_rc=77
outcome="ran:${want_ran:- none}; could not run (see above):$want_skipped"
[ $rc -eq $want_rc ] && grep -qx "try all: $outcome; failed: none" "$T/all.out"
ok $? "all runs each runtime in turn and says which ran:${want_ran:- none} (status $rc)"
[ $rc -eq $want_rc ] || diag "$(tail -n 5 "$T/all.out")" "$(cat "$T/all.err")"
lacking=""
for r in $want_ran; do [ -s "$T/all/try-$r.json.gz" ] || lacking="$lacking $r"; done
grep -q "^try torch: cannot run: no $T/no-python3" "$T/all.err" && [ -z "$lacking" ]
ok $? "all goes on past torch, which cannot run, and writes the others' traces"

# Usage errors.
"$TRY" cuda "$top_builddir" >/dev/null 2>"$T/usage.err"
rc=$?
[ $rc -eq 2 ] && grep -q "unknown runtime 'cuda'" "$T/usage.err"
ok $? "an unknown runtime is a usage error naming it (status $rc)"
"$TRY" >/dev/null 2>"$T/usage2.err"
rc=$?
[ $rc -eq 2 ] && grep -q '^usage: ' "$T/usage2.err"
ok $? "no runtime is a usage error (status $rc)"
finish
