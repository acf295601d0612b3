#!/bin/sh
# `mpirun -np K tprof-analyze --parallel DIR --split steps:N --format chrome|perfetto -o OUT`:
# each analysis process writes its share's part of every group of N steps (part g * K + k + 1
# is group g's of analysis process k), the first the index.  A group's parts cover the serial
# part's steps and time range and together hold exactly what it holds: every slice, instant,
# counter sample and arrow, an arrow between processes that two analysis processes read in
# halves, one in each of the group's parts, also when it is known only at the end of the
# reading (messages matched across analysis processes), after its part was put aside; nothing
# comes late.  The Perfetto parts each check alone, and a group's, concatenated, are its
# Chrome parts' trace.  .json.gz parts are one gzip member each.  Jobs: generated MPI jobs of
# 12 ranks on two hosts with kernels and steps of 50 ms (parts are put aside while reading)
# or 100 us (every part open to the end), a generated NCCL job with steps of 70 ms, a job of
# processes without MPI (HIP stand-in, steps), and a --steps window; K = 1 (the serial parts,
# byte for byte) and 2 to 4 under both launchers.  A part that cannot be written: exit status
# 1, no part and no index written, the earlier ones kept.  With --split size:MB each analysis
# process cuts its share by size, and the parts are numbered once all are written, each
# analysis process's after those of the one before it: the parts together are the serial
# trace (each part loadable alone, holding what the index says, nothing late, .json.gz parts
# one gzip member), each analysis process's parts a series of ranges of its processes, about
# the size; a foreign file at a name only the numbering gives fails the run whole.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-parallel.sh"
need_hip hip-multi hip-gaps roctx-ranges
need_mpich
need_mpi
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
GEN="$top_builddir/tests/tools/gen-profile"
plan 27

mix_job
ok $? "a job of six processes without MPI runs under tprof-inspect"
"$GEN" -r 12 -s 16 -t 50000 -k "$T/long" >/dev/null && "$GEN" -r 12 -s 8 -k "$T/short" >/dev/null &&
	"$GEN" -r 4 -s 12 -t 70000 -n "$T/nccl" >/dev/null
ok $? "generated MPI jobs of 12 ranks (steps of 50 ms and of 100 us) and an NCCL job of 4 ranks are written"

# serial NAME DIR EXT ARGS...: the serial analyzer's parts of DIR in $T/s/NAME.EXT's.
serial() {
	_se_name=$1 _se_dir=$2 _se_ext=$3
	shift 3
	"$ANALYZE" "$T/$_se_dir" "$@" -o "$T/s/$_se_name.$_se_ext" 2>"$T/s/$_se_name.log"
}
mkdir -p "$T/s" "$T/p" "$T/o"
# parallel NAME DIR K EXT LAUNCHER... -- ARGS...: K analysis processes write the parts of DIR
# (in $T/p/NAME.K.EXT's), saying so in one line and nothing else.
parallel() {
	_pa_name=$1 _pa_dir=$2 _pa_k=$3 _pa_ext=$4
	shift 4
	_pa_run=
	while [ "$1" != -- ]; do _pa_run="$_pa_run $1"; shift; done
	shift
	_pa_out="$T/p/$_pa_name.$_pa_k"
	# shellcheck disable=SC2086
	$_pa_run -np "$_pa_k" "$ANALYZE" --parallel "$T/$_pa_dir" "$@" -o "$_pa_out.$_pa_ext" \
		>"$_pa_out.out" 2>"$_pa_out.log"
	_pa_rc=$?
	sed 's/^/# /' "$_pa_out.log" | head -4
	[ "$_pa_rc" = 0 ] && ! [ -s "$_pa_out.out" ] && [ "$(wc -l <"$_pa_out.log")" = 1 ] &&
		grep -q "^tprof-analyze: .* trace written in [0-9]* parts, [0-9]* each of $_pa_k analysis processes, .*, listed in $_pa_out.index.json\$" \
			"$_pa_out.log"
}
# same NAME DIR K EXT LAUNCHER... -- ARGS...: NAME's Chrome parts by K analysis processes
# against the serial ones (written before, with the same ARGS), then the Perfetto parts.
same() {
	_sm_name=$1 _sm_dir=$2 _sm_k=$3 _sm_ext=$4
	shift 4
	_sm_o="$T/o/$_sm_name.$_sm_k"
	mkdir -p "$_sm_o"
	parallel "$_sm_name" "$_sm_dir" "$_sm_k" "$_sm_ext" "$@" &&
		"$PY" -B "$CHECKS" index "$T/s/$_sm_name.index.json" \
			"$T/p/$_sm_name.$_sm_k.index.json" "$_sm_k" chrome &&
		"$PY" -B "$CHECKS" same-chrome "$T/s/$_sm_name.index.json" \
			"$T/p/$_sm_name.$_sm_k.index.json" "$_sm_o" &&
		case $_sm_ext in
		*.gz) "$PY" -B "$CHECKS" one-member "$T/p/$_sm_name.$_sm_k.part-"*.json.gz ;;
		esac
	check "$_sm_name: $_sm_k analysis processes' Chrome parts (.$_sm_ext) hold each group's serial part" \
		[ $? = 0 ]
	_sm_ok=0
	parallel "$_sm_name@pf" "$_sm_dir" "$_sm_k" pftrace "$@" --format perfetto &&
		"$PY" -B "$CHECKS" index "$T/s/$_sm_name.index.json" \
			"$T/p/$_sm_name@pf.$_sm_k.index.json" "$_sm_k" perfetto || _sm_ok=1
	_sm_n=$("$PY" -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["parts"]))' \
		"$T/s/$_sm_name.index.json")
	for _sm_g in $(seq 1 "$_sm_n"); do
		: >"$_sm_o/group-$_sm_g.pftrace"
		for _sm_r in $(seq 1 "$_sm_k"); do
			_sm_p=$(printf '%s.part-%04d.pftrace' "$T/p/$_sm_name@pf.$_sm_k" \
				$(((_sm_g - 1) * _sm_k + _sm_r)))
			"$PY" -B "$PFTRACE" check --flow-halves "$_sm_p" >/dev/null || _sm_ok=1
			cat "$_sm_p" >>"$_sm_o/group-$_sm_g.pftrace" || _sm_ok=1
		done
		"$PY" -B "$PFTRACE" compare "$_sm_o/group-$_sm_g.pftrace" "$_sm_o/group-$_sm_g.json" \
			>/dev/null || _sm_ok=1
	done
	check "$_sm_name: $_sm_k analysis processes' Perfetto parts each check alone, and a group's concatenated are its Chrome parts' trace" \
		[ $_sm_ok = 0 ]
}

serial long long json --split steps:2 && serial long-gz long json.gz --split steps:3 &&
	serial short short json --split steps:2 && serial nccl nccl json --split steps:1 &&
	serial mix mix json --split steps:1 &&
	serial window long json.gz --split steps:1 --steps 3:9
ok $? "the serial parts are written"
OMPI="$MPIRUN $MPIRUN_FLAGS"
# shellcheck disable=SC2086
{
same long long 2 json $OMPI -- --split steps:2
same long long 3 json "$MPIRUN_MPICH" -- --split steps:2
same long-gz long 4 json.gz $OMPI -- --split steps:3
same short short 3 json $OMPI -- --split steps:2
same nccl nccl 2 json "$MPIRUN_MPICH" -- --split steps:1
same nccl nccl 3 json $OMPI -- --split steps:1
same mix mix 2 json $OMPI -- --split steps:1
same window long 2 json.gz $OMPI -- --split steps:1 --steps 3:9
}

# ---- --split size:MB: each analysis process's share cut by size, the parts numbered at the end
"$ANALYZE" "$T/long" -o "$T/s/long-full.json" 2>/dev/null &&
	"$ANALYZE" "$T/nccl" -o "$T/s/nccl-full.json" 2>/dev/null
ok $? "the serial unsplit traces are written"
# sized NAME DIR K EXT BYTES LAUNCHER...: DIR's trace by K analysis processes in parts of BYTES.
sized() {
	_sz_name=$1 _sz_dir=$2 _sz_k=$3 _sz_ext=$4 _sz_bytes=$5
	shift 5
	_sz_out="$T/p/$_sz_name.$_sz_k"
	_sz_mb=$(awk "BEGIN { print $_sz_bytes / 1000000 }")
	"$@" -np "$_sz_k" "$ANALYZE" --parallel "$T/$_sz_dir" --split "size:$_sz_mb" \
		-o "$_sz_out.$_sz_ext" >"$_sz_out.out" 2>"$_sz_out.log"
	_sz_rc=$?
	sed 's/^/# /' "$_sz_out.log" | head -3
	[ "$_sz_rc" = 0 ] && ! [ -s "$_sz_out.out" ] && [ "$(wc -l <"$_sz_out.log")" = 1 ] &&
		grep -q "^tprof-analyze: Chrome trace written in [0-9]* parts by $_sz_k analysis processes, .*, listed in $_sz_out.index.json\$" \
			"$_sz_out.log" &&
		"$PY" -B "$CHECKS" size-index "$_sz_out.index.json" "$_sz_k" "$_sz_bytes" &&
		"$PY" -B "$CHECKS_DIR/parallel-traces.py" same-chrome "$T/s/$_sz_dir-full.json" \
			"$_sz_out.index.json" "$T/o/$_sz_name.$_sz_k.json" &&
		case $_sz_ext in
		*.gz) "$PY" -B "$CHECKS" one-member "$_sz_out.part-"*.json.gz ;;
		esac
	check "$_sz_name: $_sz_k analysis processes' parts of $_sz_mb MB ($(basename "$1")) hold the serial trace" \
		[ $? = 0 ]
}
# shellcheck disable=SC2086
{
sized size long 2 json 60000 $OMPI
sized size long 3 json 60000 "$MPIRUN_MPICH"
sized size-gz long 4 json.gz 50000 $OMPI
sized size-nccl nccl 3 json 40000 $OMPI
}
# A foreign file at the name only the numbering at the end gives (analysis processes 0, 1, 2
# write their parts as 1, 4, 7, 10; 2, 5, 8 and 3, 6 while reading, then 1 to 9): exit status
# 1 naming it, no part and no index written, the file as it was.
mkdir -p "$T/foreign" && echo "not a trace" >"$T/foreign/f.part-0009.json"
# shellcheck disable=SC2086
$OMPI -np 3 "$ANALYZE" --parallel "$T/long" --split size:0.06 -o "$T/foreign/f.json" \
	>/dev/null 2>"$T/foreign.log"
_fo=$?
sed 's/^/# /' "$T/foreign.log" | head -3
[ $_fo = 1 ] && grep -q "f.part-0009.json" "$T/foreign.log" &&
	[ "$(ls "$T/foreign")" = f.part-0009.json ] && [ "$(cat "$T/foreign/f.part-0009.json")" = "not a trace" ]
ok $? "a foreign file at a part's final name: exit status 1 naming it, nothing written, the file kept"

# One analysis process: the serial analyzer's parts and index, byte for byte.
mkdir -p "$T/one"
# shellcheck disable=SC2086
$OMPI -np 1 "$ANALYZE" --parallel "$T/long" --split steps:2 -o "$T/one/long.json" 2>"$T/one.log"
_one=$?
for f in "$T/s/long".*; do
	case $f in *.log) continue ;; esac
	cmp -s "$f" "$T/one/${f#"$T/s/"}" || _one=1
done
ok $_one "-np 1: the serial parts and index, byte for byte"

# A part that cannot be written (a directory in the way of analysis process 1's second
# part): exit status 1, no part and no index written, the earlier trace as it was.
mkdir -p "$T/bad" && cp "$T/p/long.2".* "$T/bad/" && rm "$T/bad/long.2.part-0004.json" &&
	mkdir "$T/bad/long.2.part-0004.json"
find "$T/bad" | sort >"$T/bad.before" && find "$T/bad" -type f | sort | xargs cksum >"$T/bad.sum"
# shellcheck disable=SC2086
$OMPI -np 2 "$ANALYZE" --parallel "$T/long" --split steps:2 -o "$T/bad/long.2.json" \
	>/dev/null 2>"$T/bad.log"
_bad=$?
sed 's/^/# /' "$T/bad.log" | head -3
find "$T/bad" | sort | cmp -s - "$T/bad.before" && find "$T/bad" -type f | sort | xargs cksum |
	cmp -s - "$T/bad.sum" && [ $_bad = 1 ] && grep -q "long.2.part-0004.json" "$T/bad.log"
ok $? "a part that cannot be written: exit status 1 naming it, nothing written, the earlier parts and index kept"
finish
