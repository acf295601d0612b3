#!/bin/sh
# `mpirun -np K tprof-analyze --parallel DIR --summary`: K analysis processes each read their
# share of the profile and the first writes the summary, byte for byte the serial analyzer's,
# in text and in JSON, for K = 1 to 4, under Open MPI's mpirun and MPICH's.  The profiles: a
# job of eight processes (HIP kernels and copies on two devices each, steps, ranges across
# threads, marks and counters, a capture window the program opened and closed itself), the
# same with a damaged chunk, nrt-synth's two hosts of NeuronCores; MPI jobs whose messages
# and collectives cross analysis processes: a generated one of 12 ranks on two hosts (clock
# offsets to rank 0), apps/mpi-comms (communicators made every way) and apps/mpi-pattern
# (wildcard receives, late senders) recorded under Open MPI, apps/mpich-pattern under MPICH;
# NCCL jobs whose collectives, groups and sends tie ranks of different analysis processes:
# apps/nccl-synth's (a split communicator, a ring of sends in a group, an AllReduce one rank
# never called) and a generated one with MPI beside NCCL; apps/mpi-rma's one-sided
# communication (fence, lock and PSCW epochs towards a neighbour another analysis process
# reads), also with a rank's file removed (transfers to it left unlinked);
# also with --ranks, --top, a window and --steps (its steps found across the analysis processes,
# and its errors said once); system profiles (two hosts of processes with system images that
# name them all, a process only the system image saw, one that execs, samples of an unknown
# thread; apps/mpi-pattern recorded with tprof-inspect --sample all), each host's processes
# read by one analysis process, and refused, naming the host, when a file named for another
# host splits them.  What is not computed in parallel (--import without a profile
# directory) is refused with one line and exit status 2; imports are t-parallel-import's, OTF2 archives are t-parallel-otf2's, Chrome and
# Perfetto parts t-parallel-traces', SQLite databases t-parallel-sqlite's.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-parallel.sh"
need_hip hip-multi hip-gaps roctx-ranges
need_mpich apps/mpich-pattern
GEN="$top_builddir/tests/tools/gen-profile"
plan 65

# The job: processes side by side, then two more after them.
cat >"$T/job.sh" <<EOF2
STANDIN_HIP_KERNEL_US=scale_a:200,shift_b:300 "$APPS/hip-multi" 5 &
"$APPS/marks" &
"$APPS/steps" &
"$APPS/roctx-ranges" &
"$APPS/threads" &
"$APPS/hip-gaps" &
wait
"$APPS/steps"
"$APPS/capture" api
EOF2
"$INSPECT" -o "$T/mix" -- sh "$T/job.sh" >"$T/job.out" 2>"$T/job.err"
ok $? "the job runs under tprof-inspect"
"$ANALYZE" "$T/mix" --summary >"$T/mix.text" 2>"$T/mix.err"
check "its summary has devices, steps, capture windows, marks and counters to merge" \
	sh -c 'grep -q "^Devices" "$1" && grep -q "^Steps" "$1" && grep -q "^  recorded: " "$1" &&
		grep -q "^Marks" "$1" && grep -q "^Counters" "$1" && grep -q "^  processes:   8 " "$1"' \
	- "$T/mix.text"
"$APPS/nrt-synth" "$T/nrt" >/dev/null
ok $? "nrt-synth's profile is written"
"$GEN" -r 12 -s 8 -k "$T/gen" >/dev/null
ok $? "a generated MPI job of 12 ranks on two hosts is written"
"$APPS/nccl-synth" "$T/nccl-synth" >/dev/null && "$GEN" -r 4 -s 3 -n "$T/nccl" >/dev/null
ok $? "nccl-synth's job and a generated NCCL job of 4 ranks are written"
mpi_jobs mpi-comms mpi-pattern mpi-rma
ok $? "mpi-comms, mpi-pattern and mpi-rma run on 4 ranks of Open MPI under tprof-inspect"
"$INSPECT" -o "$T/mpich" -- "$MPIRUN_MPICH" -np 3 "$APPS/mpich-pattern" >/dev/null 2>&1
ok $? "mpich-pattern runs on 3 ranks of MPICH under tprof-inspect"
cp -r "$T/mpi-rma" "$T/rmacut" && rm "$(ls "$T"/rmacut/*.tpf | sed -n 2p)"
ok $? "a copy of mpi-rma's profile without one rank's file"
cp -r "$T/mix" "$T/bad" &&
	f=$(ls -S "$T"/bad/*.tpf | head -1) &&
	size=$(wc -c <"$f") &&
	printf 'XXXXXXXXXXXXXXXX' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null &&
	ln -s nowhere "$T/bad/gone.1.2.tpf"
ok $? "a copy of the job with 16 bytes overwritten in the middle of its largest file, and a link to nothing"
system_jobs
ok $? "a job of two hosts with system images, a copy with a file named for another host, and mpi-pattern recorded with the system profile"

# serial NAME DIR [OPTION...]: the serial summaries, text and JSON, as NAME.text, NAME.json.
serial() {
	_se_name=$1 _se_dir=$2
	shift 2
	"$ANALYZE" "$T/$_se_dir" --summary "$@" >"$T/$_se_name.text" 2>/dev/null &&
		"$ANALYZE" "$T/$_se_dir" --summary=json "$@" >"$T/$_se_name.json" 2>/dev/null
}
serial mix mix && serial nrt nrt && serial bad bad && serial cut mix --ranks 2 --top 3 &&
	serial window mix --start 20000 --end 300000 && serial gen gen && serial comms mpi-comms &&
	serial pattern mpi-pattern && serial mpich mpich && serial gencut gen --ranks 4 --top 2 &&
	serial steps mix --steps 1:2 && serial step2 mix --steps 2 --top 3 &&
	serial nsynth nccl-synth && serial nccl nccl && serial rma mpi-rma && serial rmacut rmacut &&
	serial sys sys && serial syswin sys --start 30000 --end 300000 && serial sampled sampled
ok $? "the serial summaries are written"
check "the system profiles' summaries have CPU samples and thread states to merge" \
	sh -c 'for f in "$@"; do grep -q "^CPU samples by thread" "$f" && grep -q "^Off-CPU time" "$f" ||
		exit 1; done' - "$T/sys.text" "$T/sampled.text"
check "the MPI jobs' summaries have messages, collectives and ranks to merge" \
	sh -c 'for f in "$@"; do grep -q "^  matched: .* messages" "$f" && grep -q "^MPI collectives" "$f" &&
		grep -q "^MPI by rank" "$f" || exit 1; done' - "$T/gen.text" "$T/comms.text" \
	"$T/pattern.text" "$T/mpich.text"
check "the NCCL jobs' summaries have collectives, an incomplete instance and sends to merge" \
	sh -c 'grep -q "^NCCL collectives" "$1" && grep -q "^  instances: .*, 1 incomplete" "$1" &&
		grep -q "^NCCL send/receive" "$1" && grep -q "^NCCL collectives" "$2"' - \
	"$T/nsynth.text" "$T/nccl.text"
check "the one-sided job's transfers are all linked; without a rank's file, some are not" \
	sh -c 'grep -q "^  transfers: [1-9][0-9]* linked to their completion at the target, 0 whose" "$1" &&
		grep -q "^  transfers: [1-9][0-9]* linked .*, [1-9][0-9]* whose epoch" "$2"' - \
	"$T/rma.text" "$T/rmacut.text"
check "the damaged copy is read past its damage, the link listed as unreadable" \
	sh -c 'grep -q "damaged input" "$1" && grep -q "^  unreadable:  1 file not read" "$1"' - "$T/bad.text"

# same NAME DIR K LAUNCHER... -- [OPTION...]: K analysis processes write both summaries as one.
same() {
	_sm_name=$1 _sm_dir=$2 _sm_k=$3
	shift 3
	_sm_run=
	while [ "$1" != -- ]; do
		_sm_run="$_sm_run $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	$_sm_run -np "$_sm_k" "$ANALYZE" --parallel "$T/$_sm_dir" --summary "$@" \
		>"$T/$_sm_name.$_sm_k.text" 2>"$T/$_sm_name.$_sm_k.err" &&
		$_sm_run -np "$_sm_k" "$ANALYZE" --parallel "$T/$_sm_dir" --summary=json "$@" \
			>"$T/$_sm_name.$_sm_k.json" 2>>"$T/$_sm_name.$_sm_k.err"
	_sm_rc=$?
	diff "$T/$_sm_name.text" "$T/$_sm_name.$_sm_k.text" | head -5 | sed 's/^/# /'
	diff "$T/$_sm_name.json" "$T/$_sm_name.$_sm_k.json" | head -5 | sed 's/^/# /'
	check "$_sm_name: $_sm_k analysis processes ($(basename "${_sm_run# }" | cut -d' ' -f1)) write the serial summary, text and JSON" \
		sh -c '[ "$1" = 0 ] && cmp -s "$2.text" "$3.text" && cmp -s "$2.json" "$3.json"' \
		- "$_sm_rc" "$T/$_sm_name" "$T/$_sm_name.$_sm_k"
}
OMPI="$MPIRUN $MPIRUN_FLAGS"
same mix mix 1 $OMPI --
same mix mix 2 $OMPI --
same mix mix 3 $OMPI --
same mix mix 4 $OMPI --
same nrt nrt 2 $OMPI --
same nrt nrt 4 $OMPI --
same bad bad 2 $OMPI --
same bad bad 3 $OMPI --
check "bad: the link to nothing is said once in each run (text, JSON), not by each of the 3 analysis processes" \
	test "$(grep -c "gone.1.2.tpf: a symbolic link to nothing" "$T/bad.3.err")" = 2
same cut mix 3 $OMPI -- --ranks 2 --top 3
same window mix 2 $OMPI -- --start 20000 --end 300000
same gen gen 2 $OMPI --
same gen gen 3 $OMPI --
same gen gen 4 $OMPI --
same gencut gen 3 $OMPI -- --ranks 4 --top 2
same comms mpi-comms 2 $OMPI --
same comms mpi-comms 3 $OMPI --
same pattern mpi-pattern 2 $OMPI --
same pattern mpi-pattern 4 $OMPI --
same mpich mpich 2 "$MPIRUN_MPICH" --
same mpich mpich 3 $OMPI --
same mix mix 2 "$MPIRUN_MPICH" --
same mix mix 3 "$MPIRUN_MPICH" --
same nrt nrt 2 "$MPIRUN_MPICH" --
same cut mix 4 "$MPIRUN_MPICH" -- --ranks 2 --top 3
same steps mix 3 $OMPI -- --steps 1:2
same nsynth nccl-synth 2 $OMPI --
same nsynth nccl-synth 3 $OMPI --
same nsynth nccl-synth 4 "$MPIRUN_MPICH" --
same nccl nccl 3 $OMPI --
same rma mpi-rma 2 $OMPI --
same rma mpi-rma 3 $OMPI --
same rma mpi-rma 4 "$MPIRUN_MPICH" --
same rmacut rmacut 3 $OMPI --
same steps mix 2 "$MPIRUN_MPICH" -- --steps 1:2
same step2 mix 4 $OMPI -- --steps 2 --top 3
same sys sys 2 $OMPI --
same sys sys 3 $OMPI --
same sys sys 4 "$MPIRUN_MPICH" --
same syswin sys 3 $OMPI -- --start 30000 --end 300000
same sampled sampled 2 $OMPI --
same sampled sampled 3 "$MPIRUN_MPICH" --
check "sys: the records of unknown threads and the library gone are each said in one line, the serial analyzer's" \
	sh -c '"$1" "$2" --summary 2>&1 >/dev/null | sort >"$3.s" && [ "$(wc -l <"$3.s")" = 2 ] &&
		grep -q "no TASK record" "$3.s" && grep -q "libgone.so: cannot read" "$3.s" &&
		[ "$(wc -l <"$4")" = 4 ] && sort -u "$4" | cmp -s - "$3.s"' \
	- "$ANALYZE" "$T/sys" "$T/said" "$T/sys.3.err"
# shellcheck disable=SC2086
$OMPI -np 3 "$ANALYZE" --parallel "$T/mix" --summary --steps 99 >"$T/nostep.out" 2>"$T/nostep.err"
_ns_rc=$?
check "--steps of a step no process has: exit status 2 ($_ns_rc), said once, nothing written" \
	sh -c '[ "$1" = 2 ] && [ "$(grep -c "^tprof-analyze: --steps 99: not found (steps recorded: " "$2")" = 1 ] &&
		! [ -s "$3" ]' - "$_ns_rc" "$T/nostep.err" "$T/nostep.out"
# shellcheck disable=SC2086
$OMPI -np 3 "$ANALYZE" --parallel "$T/gen" --summary -v >/dev/null 2>"$T/verbose.err"
check "-v: each analysis process's lines whole among the others' ($(wc -l <"$T/verbose.err") lines, each one tprof-analyze's)" \
	sh -c '[ "$(grep -c "^tprof-analyze: analysis process [0-2] of 3: " "$1")" = 3 ] &&
		! grep -v "^tprof-analyze: [^ ]" "$1" && ! grep "tprof-analyze: .*tprof-analyze: " "$1"' \
	- "$T/verbose.err"
"$ANALYZE" --parallel "$T/mix" --summary >"$T/alone.text" 2>/dev/null
check "--parallel without a launcher is the serial analyzer" cmp -s "$T/mix.text" "$T/alone.text"

# refused NAME WHY COMMAND...: exit status 2 and one line that names what is not parallel yet.
refused() {
	_rf_name=$1 _rf_why=$2
	shift 2
	"$@" >"$T/refused.out" 2>"$T/refused.err"
	_rf_rc=$?
	check "$_rf_name: refused (exit status $_rf_rc, $(grep -c 'tprof-analyze: --parallel' "$T/refused.err") line), nothing written" \
		sh -c '[ "$1" = 2 ] && [ "$(grep -c "^tprof-analyze: --parallel: .*$2" "$3")" = 1 ] &&
			! [ -s "$4" ]' - "$_rf_rc" "$_rf_why" "$T/refused.err" "$T/refused.out"
}
# shellcheck disable=SC2086
refused "a host's processes split by a file named for another host" \
	"the processes of host node2, which has a system image, were read by different analysis processes" \
	$OMPI -np 3 "$ANALYZE" --parallel "$T/syssplit" --summary
printf '{"traceEvents": [{"ph": "X", "name": "op", "pid": 1, "tid": 1, "ts": 10, "dur": 5}]}\n' >"$T/imp.json"
refused "--import without a profile directory" \
	"--import without a profile directory is not computed in parallel" \
	"$MPIRUN_MPICH" -np 2 "$ANALYZE" --parallel --import "$T/imp.json" -o "$T/trace.json"
check "the trace refused is not written" sh -c '! ls "$1"/trace.* >/dev/null 2>&1' - "$T"
finish
