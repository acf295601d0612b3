#!/bin/sh
# `mpirun -np K tprof-analyze --parallel DIR` with framework traces: those found in DIR and
# those given with --import.  Each file is read by one analysis process and sent to the one
# that reads its home process, which places it; a file whose process the profile does not
# have is placed by the first, with what it needs of every analysis process's processes (the
# profile's start, the best fit of its steps over all of them).  The outputs are the serial
# analyzer's: summary text and JSON byte for byte, Chrome and Perfetto parts holding the serial
# trace, the OTF2 archive's events and definitions, the SQLite rows.  The job: a generated MPI
# job of 12 ranks on two hosts with traces shaped as tprof.torch writes PyTorch's for four of
# its ranks (on both hosts), imported as found; then with --import of a trace of no process
# of the job with steps (placed by the steps of all), one with neither steps nor time (put at
# the start, said once), and with --import-offset.  K = 2 to 4 under both launchers.  A file
# named so that its home process goes to another analysis process than the file is refused
# with one line.  A PyTorch data-parallel loop on 4 ranks (Debian's python3-torch and
# mpi4py, tprof.torch.profile writing each rank's trace into the profile) gives the serial
# summary and trace.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
need_mpich
need_mpi
need_torch
"$SYS_PY" -c 'import mpi4py' 2>/dev/null ||
	skip_all "$SYS_PY lacks mpi4py (on Debian: apt-get install python3-mpi4py)"
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
plan 21

"$top_builddir/tests/tools/gen-profile" -r 12 -s 6 -t 1000 -k "$T/job" >/dev/null &&
	"$PY" -B "$CHECKS" write-traces "$T/job" 12 6 1000 1 6 9 11 &&
	"$PY" -B "$CHECKS" write-lone "$T/lone-steps.json" 6 1000 2 &&
	"$PY" -B "$CHECKS" write-lone "$T/lone.json" 0 0 0
ok $? "a generated MPI job of 12 ranks on two hosts with PyTorch-shaped traces of 4 ranks, and two traces of no process of it"

IMP="--import $T/lone-steps.json --import $T/lone.json"
# serial NAME DIR OPTIONS...: the serial outputs of DIR: summary text and JSON, Chrome trace,
# OTF2 archive (listed by otf2-print) and SQLite database, as $T/s/NAME.*
mkdir -p "$T/s" "$T/p"
serial() {
	_se_name=$1 _se_dir=$2
	shift 2
	# shellcheck disable=SC2086
	"$ANALYZE" "$T/$_se_dir" "$@" --summary >"$T/s/$_se_name.text" 2>"$T/s/$_se_name.err" &&
		"$ANALYZE" "$T/$_se_dir" "$@" --summary=json >"$T/s/$_se_name.json" 2>/dev/null &&
		"$ANALYZE" "$T/$_se_dir" "$@" -o "$T/s/$_se_name.trace.json" 2>/dev/null &&
		"$ANALYZE" "$T/$_se_dir" "$@" --format otf2 -o "$T/s/$_se_name.otf2" 2>/dev/null &&
		otf2_print "$T/s/$_se_name.otf2/traces.otf2" "$T/s/$_se_name.o" &&
		"$ANALYZE" "$T/$_se_dir" "$@" --format sqlite -o "$T/s/$_se_name.db" 2>/dev/null
}
# shellcheck disable=SC2086
serial found job && serial lone job $IMP && serial offset job $IMP --import-offset 3000
ok $? "the serial outputs are written"
check "the serial analyzer placed the found traces on their ranks by their steps, the lone ones by the job's steps and at its start" \
	sh -c '"$1" "$2" $3 -v --summary 2>&1 >/dev/null | grep -c "^tprof-analyze: imported .*placed by its steps\$" | grep -qx 5 &&
		"$1" "$2" $3 -v --summary 2>&1 >/dev/null | grep -q "imported .*lone.json: .*placed its first event at the start" &&
		grep -q "rank 9 (node001, pid 10009) .*with node001.10009.pt.trace.json imported" "$4"' \
	- "$ANALYZE" "$T/job" "$IMP" "$T/s/lone.text"

# same NAME DIR K LAUNCHER... -- OPTIONS...: K analysis processes write NAME's outputs, the
# serial ones; what they say besides is what the serial analyzer said, once.
same() {
	_sm_name=$1 _sm_dir=$2 _sm_k=$3
	shift 3
	_sm_run=
	while [ "$1" != -- ]; do _sm_run="$_sm_run $1"; shift; done
	shift
	_sm_p="$T/p/$_sm_name.$_sm_k"
	rm -rf "$_sm_p".*
	mkdir -p "$_sm_p.parts"
	# shellcheck disable=SC2086
	$_sm_run -np "$_sm_k" "$ANALYZE" --parallel "$T/$_sm_dir" "$@" --summary >"$_sm_p.text" \
		2>"$_sm_p.err" &&
		$_sm_run -np "$_sm_k" "$ANALYZE" --parallel "$T/$_sm_dir" "$@" --summary=json \
			>"$_sm_p.json" 2>/dev/null &&
		cmp -s "$T/s/$_sm_name.text" "$_sm_p.text" && cmp -s "$T/s/$_sm_name.json" "$_sm_p.json" &&
		cmp -s "$T/s/$_sm_name.err" "$_sm_p.err"
	check "$_sm_name: $_sm_k analysis processes ($(basename "${_sm_run# }" | cut -d' ' -f1)) write the serial summary, text and JSON, and say what it said" \
		[ $? = 0 ]
	# shellcheck disable=SC2086
	$_sm_run -np "$_sm_k" "$ANALYZE" --parallel "$T/$_sm_dir" "$@" -o "$_sm_p.parts/t.json" \
		2>/dev/null &&
		"$PY" -B "$CHECKS_DIR/parallel-traces.py" same-chrome "$T/s/$_sm_name.trace.json" \
			"$_sm_p.parts/t.index.json" "$_sm_p.merged.json" &&
		$_sm_run -np "$_sm_k" "$ANALYZE" --parallel "$T/$_sm_dir" "$@" -f perfetto \
			-o "$_sm_p.parts/t.pftrace" 2>/dev/null &&
		for _sm_f in "$_sm_p.parts"/t.part-*.pftrace; do
			"$PY" -B "$PFTRACE" check --flow-halves "$_sm_f" >/dev/null || exit 1
		done &&
		cat "$_sm_p.parts"/t.part-*.pftrace >"$_sm_p.pftrace" &&
		"$PY" -B "$PFTRACE" compare "$_sm_p.pftrace" "$_sm_p.merged.json" >/dev/null
	check "$_sm_name: $_sm_k analysis processes' Chrome and Perfetto parts hold the serial trace" \
		[ $? = 0 ]
	# shellcheck disable=SC2086
	$_sm_run -np "$_sm_k" "$ANALYZE" --parallel "$T/$_sm_dir" "$@" --format otf2 \
		-o "$_sm_p.otf2" 2>/dev/null &&
		otf2_print "$_sm_p.otf2/traces.otf2" "$_sm_p.o" &&
		"$PY" -B "$CHECKS_DIR/parallel-otf2.py" same-archive "$T/s/$_sm_name.o" "$_sm_p.o" &&
		$_sm_run -np "$_sm_k" "$ANALYZE" --parallel "$T/$_sm_dir" "$@" --format sqlite \
			-o "$_sm_p.db" 2>/dev/null &&
		"$PY" -B "$CHECKS_DIR/parallel-sqlite.py" same "$T/s/$_sm_name.db" "$_sm_p.db" >/dev/null
	check "$_sm_name: $_sm_k analysis processes' OTF2 archive and SQLite database are the serial ones" \
		[ $? = 0 ]
}
OMPI="$MPIRUN $MPIRUN_FLAGS"
# shellcheck disable=SC2086
{
same found job 2 $OMPI --
same found job 3 "$MPIRUN_MPICH" --
same lone job 3 $OMPI -- $IMP
same lone job 4 "$MPIRUN_MPICH" -- $IMP
same offset job 2 $OMPI -- $IMP --import-offset 3000
}

# A rank's file renamed: its trace goes to the analysis process its name gives, not to its
# process's.
cp -r "$T/job" "$T/renamed" && mv "$T/renamed/node001.10009.00002719.tpf" "$T/renamed/zz.10009.00002719.tpf"
# shellcheck disable=SC2086
$OMPI -np 3 "$ANALYZE" --parallel "$T/renamed" --summary >"$T/ren.out" 2>"$T/ren.err"
_rn=$?
sed 's/^/# /' "$T/ren.err" | head -2
[ $_rn = 2 ] && ! [ -s "$T/ren.out" ] &&
	[ "$(grep -c "^tprof-analyze: --parallel: the process of the imported .*node001.10009.pt.trace.json was read by another analysis process" "$T/ren.err")" = 1 ]
ok $? "a trace whose process another analysis process reads (a renamed file): exit status 2, one line naming it"

# A PyTorch data-parallel loop, each rank's trace found in the profile.
PYTHONPATH="$top_srcdir/python${PYTHONPATH:+:$PYTHONPATH}" "$INSPECT" -o "$T/torch" -- \
	$OMPI -np 4 "$SYS_PY" -B "$top_srcdir/tests/apps/torch-ddp.py" 4 >"$T/torch.run" 2>&1 &&
	[ "$(ls "$T"/torch/*.pt.trace.json | wc -l)" = 4 ]
ok $? "a PyTorch loop on 4 ranks writes its profile and each rank's PyTorch trace"
"$ANALYZE" "$T/torch" --summary >"$T/torch.text" 2>/dev/null &&
	"$ANALYZE" "$T/torch" -o "$T/torch.json" 2>/dev/null &&
	# shellcheck disable=SC2086
	$OMPI -np 3 "$ANALYZE" --parallel "$T/torch" --summary >"$T/torch.3.text" 2>/dev/null &&
	cmp -s "$T/torch.text" "$T/torch.3.text" && grep -q "^  import: " "$T/torch.text" &&
	mkdir -p "$T/torch.parts" &&
	$OMPI -np 3 "$ANALYZE" --parallel "$T/torch" -o "$T/torch.parts/t.json" 2>/dev/null &&
	"$PY" -B "$CHECKS_DIR/parallel-traces.py" same-chrome "$T/torch.json" \
		"$T/torch.parts/t.index.json" "$T/torch.merged.json"
ok $? "the PyTorch loop: 3 analysis processes write the serial summary and trace"
finish
