#!/bin/sh
# try.sh RUNTIME [BUILD_DIR] — tprof on one example program per runtime, without a GPU: the
# program runs under tprof-inspect (against the stand-in runtimes of tests/stand-ins where it
# needs one), then tprof-analyze prints the profile's summary and writes its Chrome trace.
# RUNTIME: hip, mpi, nccl, neuron, torch, system, or all (each in turn).  BUILD_DIR (default:
# build/ at the top of this checkout) is a build tree where `make try` has built the stand-ins
# and the examples.  tprof-inspect and tprof-analyze come from PATH when they are there, else
# from BUILD_DIR/cli and BUILD_DIR/analyze.  Everything is written in the current directory:
# try-RUNTIME (the profile; an earlier one is replaced), try-RUNTIME.json.gz (the Chrome
# trace) and try-RUNTIME.log (what the program and tprof-inspect printed).
# Exit status: 0 when it ran; 77 when something it needs is missing (one line says what and
# how to get it); 2 for a usage error; 1 when something failed.  With `all`: 0 when none
# failed and at least one ran.  SYSTEM_PYTHON3 names the Python of the PyTorch example
# (default /usr/bin/python3, Debian's own, for its python3-torch).
# shellcheck disable=SC2317 # the try_RUNTIME functions are called as try_"$RUNTIME"
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
RUNTIMES="hip mpi nccl neuron torch system"

usage() {
	echo "usage: $0 RUNTIME [BUILD_DIR]" >&2
	echo "  RUNTIME: $RUNTIMES, or all; BUILD_DIR: default $top/build" >&2
}
case ${1:-} in
-h | --help)
	usage 2>&1
	exit 0
	;;
esac
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	usage
	exit 2
fi
case " $RUNTIMES all " in
*" $1 "*) ;;
*)
	echo "try: unknown runtime '$1'" >&2
	usage
	exit 2
	;;
esac
WHAT=$1
B=${2:-$top/build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
APPS=$B/tests/apps
STANDINS=$B/tests/stand-ins/.libs
INSTALL="scripts/install-deps.sh installs it all"

# tool NAME DIR: NAME from PATH, else from the build tree's DIR.
tool() {
	if command -v "$1" >/dev/null 2>&1; then
		command -v "$1"
	elif [ -x "$B/$2/$1" ]; then
		echo "$B/$2/$1"
	else
		return 1
	fi
}
if ! INSPECT=$(tool tprof-inspect cli) || ! ANALYZE=$(tool tprof-analyze analyze); then
	echo "try: no tprof-inspect or tprof-analyze on PATH or in $B;" \
		"build tprof first (scripts/build.sh builds it in build/)" >&2
	exit 77
fi

say() { printf '%s\n' "$@"; }

# missing RUNTIME WHAT...: the one line saying what RUNTIME's example lacks; status 77.
missing() {
	_r=$1
	shift
	echo "try $_r: cannot run: $*" >&2
	return 77
}

# built RUNTIME FILE [NEEDS]: FILE (a path under BUILD_DIR/tests) is there, else the line
# saying what building it needs.
built() {
	[ -e "$B/tests/$2" ] && return 0
	if [ -n "${3:-}" ]; then
		missing "$1" "no $B/tests/$2: it needs $3 ($INSTALL; then configure again and run" \
			"make try in $B)"
	else
		missing "$1" "no $B/tests/$2: run make try in $B" \
			"(scripts/build.sh configures and builds one in build/)"
	fi
}

# need_mpirun RUNTIME: MPIRUN, mpirun with the options it needs here (Open MPI's: several ranks
# a core, and as root its consent); else the line saying it is missing.
need_mpirun() {
	MPIRUN=$(command -v mpirun) || {
		missing "$1" "no mpirun on PATH (Open MPI: $INSTALL;" \
			"then configure again and run make try in $B)"
		return
	}
	if "$MPIRUN" --version 2>&1 | grep -q 'Open MPI'; then
		MPIRUN="$MPIRUN --oversubscribe"
		[ "$(id -u)" -eq 0 ] && MPIRUN="$MPIRUN --allow-run-as-root"
	fi
	return 0
}

# standins: the stand-in runtimes first on the library path; shown says so.
standins() {
	LD_LIBRARY_PATH="$STANDINS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
	shown="LD_LIBRARY_PATH=$STANDINS${shown:+ $shown}"
}

# record RUNTIME STATUS [OPTION...] -- COMMAND...: runs COMMAND under tprof-inspect into
# ./try-RUNTIME (replacing an earlier profile there), what it prints into try-RUNTIME.log;
# fails, showing the log's end, unless COMMAND exits with STATUS.  Printed first, as a
# command line, with $shown (the variables set for it) in front.
record() {
	_r=$1 _want=$2
	shift 2
	_opts=""
	while [ "$1" != -- ]; do
		_opts="$_opts $1"
		shift
	done
	shift
	say "\$ ${shown:+$shown }tprof-inspect$_opts -o try-$_r --replace -- $*"
	# shellcheck disable=SC2086 # the options are single words
	"$INSPECT" $_opts -o "try-$_r" --replace -- "$@" >"try-$_r.log" 2>&1
	_rc=$?
	if [ "$_rc" -ne "$_want" ]; then
		echo "try $_r: failed: exit status $_rc, not $_want; the end of try-$_r.log:" >&2
		tail -n 15 "try-$_r.log" >&2
		return 1
	fi
	grep '^tprof-inspect: ' "try-$_r.log"
}

# analyze RUNTIME [--top N]: prints the profile's summary (its first N rows a table) and
# writes its Chrome trace.
analyze() {
	_r=$1
	shift
	say "" "\$ tprof-analyze try-$_r --summary${1:+ $*} -o try-$_r.json.gz"
	"$ANALYZE" "try-$_r" --summary "$@" -o "try-$_r.json.gz" 2>&1 || {
		echo "try $_r: failed: tprof-analyze could not read try-$_r" >&2
		return 1
	}
	say "" "try $_r: open try-$_r.json.gz at https://ui.perfetto.dev (Open trace file)"
}

# ---------------------------------------------------------------- the examples
# Each runs in a subshell of its own, so that what one exports stays there.

# HIP: a hipcc-compiled program, 2 host threads driving 2 devices x 2 streams of kernels and
# copies, on the stand-in libamdhip64.so.5; its kernels last what STANDIN_HIP_KERNEL_US says.
try_hip() {
	built hip apps/hip-multi "hipcc and the HIP headers" || return
	built hip stand-ins/.libs/libamdhip64.so.5 "the HIP headers" || return
	STANDIN_HIP_KERNEL_US=scale_a:2000,shift_b:3000,hold:50000
	export STANDIN_HIP_KERNEL_US
	shown="STANDIN_HIP_KERNEL_US=$STANDIN_HIP_KERNEL_US"
	standins
	record hip 0 -- "$APPS/hip-multi" 5 hold && analyze hip
}

# MPI: 4 ranks of a fixed pattern of messages and collectives (Open MPI, built with mpicc).
try_mpi() {
	need_mpirun mpi || return
	built mpi apps/mpi-pattern "mpicc and mpirun" || return
	# shellcheck disable=SC2086 # MPIRUN is mpirun and its options
	record mpi 0 -- $MPIRUN -np 4 "$APPS/mpi-pattern" && analyze mpi --top 10
}

# NCCL: 4 MPI ranks running collectives and sends through the stand-in libnccl.so.2, on the
# stand-in HIP runtime's streams.
try_nccl() {
	need_mpirun nccl || return
	built nccl apps/nccl-ranks "mpicc, mpirun and the HIP headers" || return
	built nccl stand-ins/.libs/libnccl.so.2 "the HIP headers" || return
	shown=""
	standins
	# shellcheck disable=SC2086
	record nccl 0 -- $MPIRUN -np 4 "$APPS/nccl-ranks" && analyze nccl --top 10
}

# mkneff FILE NAME [KEY=VALUE...]: writes a NEFF file for the stand-in (apps/mkneff), shown.
mkneff() {
	say "\$ mkneff $*"
	"$APPS/mkneff" "$@"
}

# Neuron: two models (NEFF files made by apps/mkneff) executed 10 times each on NeuronCores 0
# and 1 from two threads, through the stand-in libnrt.so.1.
try_neuron() {
	built neuron apps/nrt-threads || return
	built neuron apps/mkneff || return
	built neuron stand-ins/.libs/libnrt.so.1 || return
	mlp="try-neuron-mlp.neff mlp-small exec_us=20000 in=x:4096 in=y:4096 out=z:4096"
	conv="try-neuron-conv.neff conv-big exec_us=30000 add=2 in=img:65536 out=map:32768"
	# shellcheck disable=SC2086 # FILE NAME KEY=VALUE..., words
	if ! mkneff $mlp || ! mkneff $conv; then
		echo "try neuron: failed: mkneff could not write the NEFF files here" >&2
		return 1
	fi
	shown=""
	standins
	record neuron 0 -- "$APPS/nrt-threads" -n 10 try-neuron-mlp.neff try-neuron-conv.neff &&
		analyze neuron
}

# PyTorch: a small training loop (nn.Linear, SGD, 6 steps) under tprof.torch.profile, run by
# Debian's python3 with its python3-torch (CPU); tprof-inspect puts tprof's Python module on
# PYTHONPATH, and the analyzer merges PyTorch's own trace with the profile.
try_torch() {
	_py=${SYSTEM_PYTHON3:-/usr/bin/python3}
	[ "$_py" = no ] && _py=/usr/bin/python3 # configure's word for none found
	[ -x "$_py" ] || {
		missing torch "no $_py (Debian's python3, with python3-torch: $INSTALL)"
		return
	}
	"$_py" -c 'import torch' >/dev/null 2>&1 || {
		missing torch "$_py cannot import torch (python3-torch: $INSTALL)"
		return
	}
	[ -f "$top/tests/apps/python-torch.py" ] || {
		missing torch "no $top/tests/apps/python-torch.py (a source tree's tests/apps)"
		return
	}
	# Its argument, where it writes the facts its test compares, is not needed here; nothing
	# is compiled into the source tree's python/.
	PYTHONDONTWRITEBYTECODE=1
	export PYTHONDONTWRITEBYTECODE
	shown="PYTHONDONTWRITEBYTECODE=1"
	record torch 0 -- "$_py" "$top/tests/apps/python-torch.py" /dev/null &&
		analyze torch --top 10
}

# The system profile: CPU samples (with stacks through the kernel's BPF probes as root, else
# from /proc), thread states and memory of a program that spins in two functions 3:1, in
# other threads and in two children; it exits with status 5 on purpose.
try_system() {
	built system apps/sysratio || return
	shown=""
	record system 5 --sample all -- "$APPS/sysratio" 1000 && analyze system --top 10
}

# run RUNTIME: its example, with a heading.
run() {
	say "==== try $1 ===="
	(try_"$1")
}

shown=""
say "try: tprof-inspect is $INSPECT, tprof-analyze is $ANALYZE"

if [ "$WHAT" != all ]; then
	run "$WHAT"
	exit $?
fi
ran="" skipped="" failed=""
for r in $RUNTIMES; do
	run "$r"
	case $? in
	0) ran="$ran $r" ;;
	77) skipped="$skipped $r" ;;
	*) failed="$failed $r" ;;
	esac
	say ""
done
outcome="ran:${ran:- none}; could not run (see above):${skipped:- none}"
say "try all: $outcome; failed:${failed:- none}"
[ -n "$failed" ] && exit 1
[ -z "$ran" ] && exit 77
exit 0
