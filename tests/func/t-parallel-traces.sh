#!/bin/sh
# `mpirun -np K tprof-analyze --parallel DIR --format chrome|perfetto -o OUT`: each analysis
# process writes the part of the trace its share of the processes makes (OUT's stem +
# .part-NNNN), the first the index beside them (stem + .index.json).  Each part loads alone;
# an arrow between processes two analysis processes read is drawn in halves, one in each part,
# sharing the arrow's id and arguments.  The Chrome parts together are the serial analyzer's
# Chrome trace (every slice, instant, counter sample and arrow, on the same tracks in the
# same order), and the Perfetto parts, concatenated, are one Perfetto trace that tools/pftrace.py
# finds equal to them: a job of processes without MPI (HIP kernels and copies, steps, marks,
# counters, ranges across threads), a generated MPI job of 12 ranks on two hosts,
# apps/mpi-pattern and apps/mpi-rma (one-sided arrows) under Open MPI, apps/mpich-pattern
# under MPICH, and NCCL jobs whose collectives and sends span analysis processes (arrows
# between device spans on two sides): a generated one, apps/nccl-synth's, apps/nccl-ranks
# over the stand-in NCCL on 4 ranks of Open MPI; K = 2 to 4 under both launchers.  Under
# --group-by domain, instance and neuroncore, whose groups hold the tracks of processes that
# different analysis processes read, the same (the job without MPI, the generated MPI job,
# nccl-synth's job, apps/nrt-synth's two processes on two hosts).  System profiles (thread
# states, CPU samples and host counters on the tracks of processes of two hosts, and of
# apps/mpi-pattern recorded with tprof-inspect --sample all) likewise.  What is not done in
# parallel is refused with one line, exit status 2 and nothing written: --import without a
# profile directory (--split: t-parallel-split.sh; imports: t-parallel-import.sh).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-parallel.sh"
need_hip hip-multi hip-gaps roctx-ranges
need_mpich apps/mpich-pattern
need_mpi apps/mpi-pattern apps/mpi-rma apps/nccl-ranks
[ -e "$STANDIN_LIBDIR/libnccl.so.2" ] || skip_all "no stand-in NCCL (configure found no usable HIP headers)"
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
plan 46

mix_job
ok $? "a job of six processes without MPI runs under tprof-inspect"
generated_jobs nsynth
ok $? "a generated MPI job of 12 ranks on two hosts, a generated NCCL job of 4 ranks and nccl-synth's job are written"
mpi_jobs mpi-pattern mpi-rma nccl-ranks
ok $? "mpi-pattern, mpi-rma and nccl-ranks run on 4 ranks of Open MPI under tprof-inspect"
"$INSPECT" -o "$T/mpich" -- "$MPIRUN_MPICH" -np 3 "$APPS/mpich-pattern" >/dev/null 2>&1
ok $? "mpich-pattern runs on 3 ranks of MPICH under tprof-inspect"
"$APPS/nrt-synth" "$T/nrt" >/dev/null
ok $? "nrt-synth's job of two processes on two hosts is written"
system_jobs
ok $? "a job of two hosts with system images and mpi-pattern recorded with the system profile are written"

for d in mix gen mpi-pattern mpi-rma mpich nccl nsynth nccl-ranks sys sampled; do
	"$ANALYZE" "$T/$d" -o "$T/$d.json" 2>"$T/$d.log" || break
done
ok $? "the serial Chrome traces are written"

# parts NAME K FORMAT EXT LAUNCHER...: K analysis processes write NAME's FORMAT trace in K
# parts (N.K.part-NNNN.EXT, N.K.index.json), saying so in one line and nothing else but what
# the serial analyzer said of NAME (its warnings, once); with the options in $WINDOW (NAME's
# serial trace was written with them too).
parts() {
	_pt_name=$1 _pt_k=$2 _pt_fmt=$3 _pt_ext=$4
	shift 4
	# shellcheck disable=SC2086
	"$@" -np "$_pt_k" "$ANALYZE" --parallel "$T/${_pt_name%%@*}" $WINDOW --format "$_pt_fmt" \
		-o "$T/$_pt_fmt/$_pt_name.$_pt_k.$_pt_ext" >"$T/$_pt_fmt/$_pt_name.$_pt_k.out" \
		2>"$T/$_pt_fmt/$_pt_name.$_pt_k.log"
	_pt_rc=$?
	sed 's/^/# /' "$T/$_pt_fmt/$_pt_name.$_pt_k.log" | head -4
	grep -v "^tprof-analyze: .* trace written in " "$T/$_pt_fmt/$_pt_name.$_pt_k.log" \
		>"$T/said.p"
	[ "$_pt_rc" = 0 ] && ! [ -s "$T/$_pt_fmt/$_pt_name.$_pt_k.out" ] &&
		[ "$(grep -c "^tprof-analyze: " "$T/$_pt_fmt/$_pt_name.$_pt_k.log")" = \
			"$(($(wc -l <"$T/said.p") + 1))" ] &&
		{ ! [ -s "$T/said.p" ] ||
			grep -v "^tprof-analyze: .* trace written to " "$T/$_pt_name.log" |
				cmp -s - "$T/said.p"; } &&
		grep -q "^tprof-analyze: .* trace written in $_pt_k parts, one per analysis process, .*, listed in $T/$_pt_fmt/$_pt_name.$_pt_k.index.json\$" \
			"$T/$_pt_fmt/$_pt_name.$_pt_k.log" &&
		"$PY" -B "$CHECKS" index "$T/$_pt_fmt/$_pt_name.$_pt_k.index.json" "$_pt_k" "$_pt_fmt"
}
mkdir -p "$T/chrome" "$T/perfetto"
WINDOW=
# same NAME K LAUNCHER...: the Chrome parts, then the Perfetto parts, of NAME by K processes.
same() {
	_sm_name=$1 _sm_k=$2
	shift 2
	parts "$_sm_name" "$_sm_k" chrome json "$@" &&
		"$PY" -B "$CHECKS" same-chrome "$T/$_sm_name.json" \
			"$T/chrome/$_sm_name.$_sm_k.index.json" "$T/$_sm_name.$_sm_k.merged.json"
	check "$_sm_name: $_sm_k Chrome parts ($(basename "$1")) hold the serial trace, each loadable alone" \
		[ $? = 0 ]
	_sm_ok=0
	parts "$_sm_name" "$_sm_k" perfetto pftrace "$@" || _sm_ok=1
	for _sm_p in "$T/perfetto/$_sm_name.$_sm_k.part-"*.pftrace; do
		"$PY" -B "$PFTRACE" check --flow-halves "$_sm_p" >/dev/null || _sm_ok=1
	done
	cat "$T/perfetto/$_sm_name.$_sm_k.part-"*.pftrace >"$T/$_sm_name.$_sm_k.pftrace"
	"$PY" -B "$PFTRACE" compare "$T/$_sm_name.$_sm_k.pftrace" "$T/$_sm_name.$_sm_k.merged.json" \
		>/dev/null || _sm_ok=1
	check "$_sm_name: $_sm_k Perfetto parts ($(basename "$1")) each check alone, and concatenated are the Chrome parts' trace" \
		[ $_sm_ok = 0 ]
}
OMPI="$MPIRUN $MPIRUN_FLAGS"
# shellcheck disable=SC2086
{
same mix 2 $OMPI
same mix 3 "$MPIRUN_MPICH"
same gen 2 $OMPI
same gen 4 "$MPIRUN_MPICH"
same mpi-pattern 3 $OMPI
same mpi-rma 2 $OMPI
same mpich 2 "$MPIRUN_MPICH"
same nccl 2 $OMPI
same nsynth 3 "$MPIRUN_MPICH"
same nccl-ranks 3 $OMPI
same sys 2 $OMPI
same sys 4 "$MPIRUN_MPICH"
same sampled 3 $OMPI
}
# A window that starts inside an NCCL instance: the ranks whose spans started before it lose
# them (their arrows go to their calls, or nowhere), those of the others are kept, whichever
# analysis process read them.
WINDOW=$("$PY" -B -c '
import collections, json, sys
starts = collections.defaultdict(set)
for e in json.load(open(sys.argv[1]))["traceEvents"]:
    if e["ph"] == "X" and e.get("cat") == "collective" and "nccl_instance" in e["args"]:
        starts[e["args"]["nccl_instance"]].add(e["ts"])
ts = next(sorted(v) for v in starts.values() if len(v) >= 3)
print("--start %.3f --end %.3f" % ((ts[0] + ts[1]) / 2, ts[-1] + 100000))' "$T/nccl-ranks.json")
# shellcheck disable=SC2086
"$ANALYZE" "$T/nccl-ranks" $WINDOW -o "$T/nccl-ranks@window.json" 2>"$T/window.log" &&
	grep -q '"ph": *"s", *"cat": *"nccl"\|"cat": *"nccl", *"ph": *"s"' "$T/nccl-ranks@window.json"
ok $? "nccl-ranks with a window that starts inside an instance ($WINDOW): serial trace written, with NCCL arrows"
# shellcheck disable=SC2086
same nccl-ranks@window 2 $OMPI

# --group-by: groups that hold the tracks of processes different analysis processes read
for d in mix@domain nsynth@domain gen@instance nrt@neuroncore; do
	"$ANALYZE" "$T/${d%@*}" --group-by "${d#*@}" -o "$T/$d.json" 2>/dev/null || break
done
ok $? "the serial Chrome traces by domain, instance and NeuronCore are written"
# shellcheck disable=SC2086
{
WINDOW="--group-by domain"
same mix@domain 2 $OMPI
same nsynth@domain 3 "$MPIRUN_MPICH"
WINDOW="--group-by instance"
same gen@instance 3 $OMPI
WINDOW="--group-by neuroncore"
same nrt@neuroncore 2 $OMPI
}

# refused NAME ARGS...: exit status 2, one line (PATTERN), no output named OUT.*
refused() {
	_rf_pat=$1 _rf_out=$2
	shift 2
	# shellcheck disable=SC2086
	$OMPI -np 2 "$ANALYZE" --parallel "$@" -o "$T/$_rf_out" >"$T/rf.out" 2>"$T/rf.err"
	_rf_rc=$?
	sed 's/^/# /' "$T/rf.err" | head -2
	[ "$_rf_rc" = 2 ] && [ "$(grep -c "^tprof-analyze: " "$T/rf.err")" = 1 ] &&
		grep -q "^tprof-analyze: --parallel: $_rf_pat" "$T/rf.err" && ! [ -s "$T/rf.out" ] &&
		! ls "$T/$_rf_out"* "$T/${_rf_out%.*}".* >/dev/null 2>&1
}
printf '{"traceEvents": [{"ph": "X", "name": "op", "pid": 1, "tid": 1, "ts": 10, "dur": 5}]}\n' >"$T/imp.json"
refused "--import without a profile directory is not computed in parallel" rf-imp.json \
	--import "$T/imp.json"
ok $? "--import without a profile directory under --parallel: refused, one line, nothing written"
finish
