#!/bin/sh
# tprof-analyze --split steps:N and --split size:MB, on profiles of the test programs: ten
# steps of known shape (apps/steps), a synthetic 4-rank MPI job with steps, messages and
# collectives (apps/mpi-synth), a synthetic NCCL job (apps/nccl-synth), HIP launches with
# their arrows (apps/hip-multi on the stand-in), real MPI ranks (apps/mpi-pattern) and MPI
# ranks with NCCL over the stand-ins (apps/nccl-ranks).  Each split is compared with the
# same trace written whole by split-check.py (its header says what each check is): every
# part and the index parse; the parts hold the whole trace's events, none lost or repeated;
# each arrow has both ends in one part, its end bound to a slice there; each part names its
# processes and tracks; the index's ranges follow each other from the trace's start to its
# end, its counts and sizes are the files'; every item lies in its part's range or is
# counted as lying outside; step ranges match; size:MB parts are about the size.  Then that
# each check can fail (split-check.py --break), and bad --split options.
. "$(dirname "$0")/lib.sh"
CHECK="$top_srcdir/tests/tools/split-check.py"
CHECKS="parse union flows meta index placement steps"
plan 112

# checks WHAT FULL INDEX [--size BYTES]: a TAP point per check (and size, with --size).
checks() {
	_what=$1
	shift
	"$PY" "$CHECK" "$@" >"$T/check.out" 2>&1
	_all=$CHECKS
	case "$*" in *--size*) _all="$CHECKS size" ;; esac
	for _c in $_all; do
		grep -qx "PASS $_c" "$T/check.out"
		ok $? "$_what: $_c"
		grep "^FAIL $_c\|Error" "$T/check.out" | head -3 |
			while read -r _l; do diag "$_l"; done
	done
}

# split WHAT PROFILE OUT EXPECT ARGS...: runs tprof-analyze PROFILE -o OUT ARGS... and checks
# it succeeds and says it wrote EXPECT parts ("" for any number).
split() {
	_what=$1 _prof=$2 _out=$3 _n=$4
	shift 4
	mkdir -p "$(dirname "$_out")"
	"$ANALYZE" "$_prof" -o "$_out" "$@" >"$T/split.out" 2>"$T/split.err" &&
		grep -q "Chrome trace written in ${_n:-[0-9]*} part" "$T/split.err"
	ok $? "$_what: tprof-analyze writes ${_n:-the} parts"
	[ -s "$T/split.err" ] && diag "$(grep -v '^tprof-analyze: Chrome' "$T/split.err" | head -3)"
}

# skip_n N REASON
skip_n() {
	_i=0
	while [ "$_i" -lt "$1" ]; do
		skip "$2"
		_i=$((_i + 1))
	done
}

# ---- ten steps (apps/steps): 3 steps a part, 1 a part, a window of steps ----------------
"$INSPECT" -o "$T/steps" -- "$APPS/steps" 10 >/dev/null 2>"$T/steps.err"
ok $? "apps/steps runs under tprof-inspect"
"$ANALYZE" "$T/steps" -o "$T/steps.json" 2>/dev/null && "$ANALYZE" "$T/steps" --steps 2:7 \
	-o "$T/steps27.json" 2>/dev/null
ok $? "the whole trace, and the window of steps 2 to 7"
split "steps:3" "$T/steps" "$T/s3/t.json" 4 --split steps:3
checks "steps:3" "$T/steps.json" "$T/s3/t.index.json"
mkdir "$T/s3s"
"$ANALYZE" "$T/steps" -o "$T/s3s/t.json" --split steps:3 --summary >"$T/s3s.out" 2>/dev/null &&
	grep -q "^Steps" "$T/s3s.out" && cmp -s "$T/s3/t.part-0002.json" "$T/s3s/t.part-0002.json"
ok $? "steps:3 with --summary: the summary printed, the parts the same"
split "steps:1, gzip" "$T/steps" "$T/s1/t.json.gz" 10 --split steps:1
checks "steps:1, gzip" "$T/steps.json" "$T/s1/t.index.json"
split "--steps 2:7 --split steps:2" "$T/steps" "$T/w/t.json" 3 --steps 2:7 --split steps:2
checks "--steps 2:7 --split steps:2" "$T/steps27.json" "$T/w/t.index.json"

# ---- a 4-rank MPI job with steps (apps/mpi-synth): steps, size, --group-by domain ---------
"$APPS/mpi-synth" "$T/mpi" 20 steps >/dev/null
ok $? "apps/mpi-synth writes 20 iterations with steps"
"$ANALYZE" "$T/mpi" -o "$T/mpi.json" 2>/dev/null &&
	"$ANALYZE" "$T/mpi" -o "$T/mpid.json" --group-by domain 2>/dev/null
ok $? "its whole trace, by process and by domain"
split "mpi-synth steps:4" "$T/mpi" "$T/m4/t.json" 5 --split steps:4
checks "mpi-synth steps:4" "$T/mpi.json" "$T/m4/t.index.json"
split "mpi-synth size:0.04" "$T/mpi" "$T/ms/t.json.gz" "" --split size:0.04
checks "mpi-synth size:0.04" "$T/mpi.json" "$T/ms/t.index.json" --size 40000
split "mpi-synth --group-by domain size:0.05" "$T/mpi" "$T/md/t.json" "" --split size:0.05 \
	--group-by domain
checks "mpi-synth --group-by domain" "$T/mpid.json" "$T/md/t.index.json"

# ---- a synthetic NCCL job (apps/nccl-synth): spans held until their collective is known ---
"$APPS/nccl-synth" "$T/nccl" 10 >/dev/null && "$ANALYZE" "$T/nccl" -o "$T/nccl.json" 2>/dev/null
ok $? "apps/nccl-synth: the job and its whole trace"
split "nccl-synth size:0.05" "$T/nccl" "$T/ns/t.json" "" --split size:0.05
checks "nccl-synth size:0.05" "$T/nccl.json" "$T/ns/t.index.json" --size 50000

# ---- HIP launches and their arrows (apps/hip-multi on the stand-in) ---------------------
if [ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ] &&
	[ -x "$APPS/hip-multi" ]; then
	STANDIN_HIP_KERNEL_US="scale_a:2000,shift_b:3000,hold:300000" \
		LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$INSPECT" -o "$T/hip" -- "$APPS/hip-multi" 5 hold >/dev/null 2>&1 &&
		"$ANALYZE" "$T/hip" -o "$T/hip.json" 2>/dev/null
	ok $? "apps/hip-multi on the stand-in: the profile and its whole trace"
	split "hip-multi size:0.01" "$T/hip" "$T/hs/t.json.gz" "" --split size:0.01
	checks "hip-multi size:0.01" "$T/hip.json" "$T/hs/t.index.json" --size 10000
else
	skip_n 10 "no stand-in HIP runtime or apps/hip-multi (configure found no hipcc)"
fi

# ---- real MPI ranks, and MPI ranks with NCCL over the stand-ins --------------------------
have_mpi=no
[ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ] && [ -x "$top_builddir/tests/apps/mpi-pattern" ] &&
	have_mpi=yes
export OMPI_MCA_mpi_yield_when_idle=1
if [ $have_mpi = yes ]; then
	"$INSPECT" -o "$T/rmpi" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 \
		"$top_builddir/tests/apps/mpi-pattern" >/dev/null 2>&1 &&
		"$ANALYZE" "$T/rmpi" -o "$T/rmpi.json" 2>/dev/null
	ok $? "mpirun -np 4 apps/mpi-pattern: the profile and its whole trace"
	split "mpi-pattern size:0.01" "$T/rmpi" "$T/rm/t.json" "" --split size:0.01
	checks "mpi-pattern size:0.01" "$T/rmpi.json" "$T/rm/t.index.json" --size 10000
else
	skip_n 10 "no mpirun or apps/mpi-pattern (configure found no MPI)"
fi
# The ranks are processes on an oversubscribed machine: an NCCL span waits for every rank's
# launch, tens of ms, a large share of a 50 kB part; so no size check here.
if [ $have_mpi = yes ] && [ -x "$APPS/nccl-ranks" ] && [ -n "${STANDIN_LIBDIR:-}" ] &&
	[ -e "$STANDIN_LIBDIR/libnccl.so.2" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$INSPECT" -o "$T/rnccl" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/nccl-ranks" \
		>/dev/null 2>&1 && "$ANALYZE" "$T/rnccl" -o "$T/rnccl.json" 2>/dev/null
	ok $? "mpirun -np 4 apps/nccl-ranks: the profile and its whole trace"
	split "nccl-ranks size:0.05" "$T/rnccl" "$T/rn/t.json.gz" "" --split size:0.05
	checks "nccl-ranks size:0.05" "$T/rnccl.json" "$T/rn/t.index.json"
else
	skip_n 9 "no mpirun, apps/nccl-ranks or stand-in NCCL (configure found no MPI or hipcc)"
fi

# ---- each check can fail: split-check.py --break CHECK changes what it read --------------
for c in $CHECKS; do
	"$PY" "$CHECK" --break "$c" "$T/mpi.json" "$T/m4/t.index.json" >"$T/break.out" 2>&1
	grep -q "^FAIL $c: " "$T/break.out"
	ok $? "the $c check fails on a split changed to break it"
done
"$PY" "$CHECK" --break size --size 40000 "$T/mpi.json" "$T/ms/t.index.json" >"$T/break.out" 2>&1
grep -q "^FAIL size: " "$T/break.out"
ok $? "the size check fails on a part made too big"

# ---- bad options: exit 2, naming --split and the value; nothing written ------------------
bad() {
	_want=$1
	shift
	rm -rf "$T/bad"
	mkdir "$T/bad"
	"$ANALYZE" "$@" >"$T/bad.out" 2>"$T/bad.err"
	_rc=$?
	[ "$_rc" -eq 2 ] && grep -q -e "--split" "$T/bad.err" && grep -q -e "$_want" "$T/bad.err" &&
		[ -z "$(ls "$T/bad")" ]
	ok $? "$(echo "$*" | sed "s|$T/||g"): exit $_rc, an error naming --split and '$_want'"
	[ "$_rc" -eq 2 ] || diag "stderr: $(cat "$T/bad.err")"
}
bad "steps:0" "$T/steps" -o "$T/bad/t.json" --split steps:0
bad "size:abc" "$T/steps" -o "$T/bad/t.json" --split size:abc
bad "size:0.001" "$T/steps" -o "$T/bad/t.json" --split size:0.001
bad "lines:5" "$T/steps" -o "$T/bad/t.json" --split lines:5
bad "format chrome" "$T/steps" --split steps:2
bad "format chrome" "$T/steps" -f otf2 -o "$T/bad/otf" --split steps:2
bad "format chrome" "$T/steps" -f sqlite -o "$T/bad/t.db" --split steps:2
bad "-o -" "$T/steps" -o - --split size:1
bad "no steps" "$T/nccl" -o "$T/bad/t.json" --split steps:2
: >"$T/nodir"
"$ANALYZE" "$T/steps" -o "$T/nodir/t.json" --split steps:2 >/dev/null 2>"$T/nodir.err"
[ $? -eq 2 ] && grep -q "cannot write .*nodir/t.part-0001.json" "$T/nodir.err"
ok $? "a part that cannot be written: refused before reading (exit 2), an error naming it"

"$ANALYZE" --help | grep -q -e "--split steps:N, --split size:MB"
ok $? "--help describes --split"
finish
