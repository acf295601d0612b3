#!/bin/sh
# `mpirun -np K tprof-analyze --parallel DIR --format sqlite -o FILE.db`: every analysis
# process writes the rows of its share into a part, the first one merges the others' into
# FILE.db and makes the links, indexes and views.  The database holds the serial one's rows,
# table by table, once references are read as what they name (parallel-sqlite.py): a job of
# processes without MPI (HIP kernels and copies, steps, marks, counters, ranges across
# threads), a generated MPI job of 12 ranks on two hosts (clock offsets against a rank
# another analysis process reads), MPI jobs under Open MPI and MPICH (messages and
# collectives whose ends two analysis processes read: their threads and arrows settled at the
# merge), one-sided windows, NCCL jobs (instances matched away from some of their ranks) and
# a window that starts inside an NCCL instance, system profiles (CPU samples whose callsites
# two analysis processes both have: one row per stack, as serially; thread states and
# counters: a job of two hosts with system images, apps/mpi-pattern recorded with
# tprof-inspect --sample all), for K = 1 to 4 under both launchers.  What the analyzer says
# besides where the database is, it says as the serial analyzer does.  Nothing
# but the database is left; when an analysis process cannot write its part, no database is.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-parallel.sh"
need_hip hip-multi hip-gaps roctx-ranges
need_mpich apps/mpich-pattern
need_mpi apps/mpi-pattern apps/mpi-rma apps/nccl-ranks
[ -e "$STANDIN_LIBDIR/libnccl.so.2" ] || skip_all "no stand-in NCCL (configure found no usable HIP headers)"
command -v sqlite3 >/dev/null || skip_all "no sqlite3 shell"
plan 26

mix_job
ok $? "a job of six processes without MPI runs under tprof-inspect"
generated_jobs nsynth
ok $? "a generated MPI job of 12 ranks on two hosts, a generated NCCL job of 4 ranks and nccl-synth's job are written"
mpi_jobs mpi-pattern mpi-rma mpi-wins nccl-ranks
ok $? "mpi-pattern, mpi-rma, mpi-wins and nccl-ranks run on 4 ranks of Open MPI under tprof-inspect"
"$INSPECT" -o "$T/mpich" -- "$MPIRUN_MPICH" -np 3 "$APPS/mpich-pattern" >/dev/null 2>&1
ok $? "mpich-pattern runs on 3 ranks of MPICH under tprof-inspect"
system_jobs
ok $? "a job of two hosts with system images and mpi-pattern recorded with the system profile are written"

# serial NAME [OPTION...]: the serial database of $T/NAME (NAME@window: with the options).
serial() {
	_se_name=$1
	shift
	mkdir -p "$T/s" && "$ANALYZE" "$T/${_se_name%@*}" "$@" --format sqlite \
		-o "$T/s/$_se_name.db" 2>"$T/$_se_name.log"
}
for d in mix gen mpi-pattern mpi-rma mpi-wins mpich nccl nsynth nccl-ranks sys sampled; do
	serial "$d" || break
done
ok $? "the serial databases are written"

# same NAME K LAUNCHER... [-- OPTION...]: K analysis processes write NAME's database, which
# holds the serial one's rows; only the first analysis process says where it is.
same() {
	_sm_name=$1 _sm_k=$2 _sm_db="$T/p/$1.$2.db"
	shift 2
	_sm_launch="" _sm_opts=""
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		_sm_launch="$_sm_launch $1"
		shift
	done
	[ $# -gt 0 ] && shift && _sm_opts="$*"
	mkdir -p "$T/p"
	# shellcheck disable=SC2086
	$_sm_launch -np "$_sm_k" "$ANALYZE" --parallel "$T/${_sm_name%@*}" $_sm_opts --format sqlite \
		-o "$_sm_db" >"$T/$_sm_name.$_sm_k.out" 2>"$T/$_sm_name.$_sm_k.log"
	_sm_rc=$?
	sed 's/^/# /' "$T/$_sm_name.$_sm_k.log" | head -4
	grep -v "^tprof-analyze: SQLite database written to " "$T/$_sm_name.log" >"$T/said.s"
	grep -v "^tprof-analyze: SQLite database written to " "$T/$_sm_name.$_sm_k.log" >"$T/said.p"
	check "$_sm_name: $_sm_k analysis processes ($(basename "${_sm_launch# }" | cut -d' ' -f1)) write the serial database" \
		sh -c '[ "$1" = 0 ] &&
			[ "$(grep -c "^tprof-analyze: SQLite database written to $3\$" "$2")" = 1 ] &&
			cmp -s "$8" "$9" && ! [ -s "$4" ] && "$5" -B "$6" same "$7" "$3"' - "$_sm_rc" \
		"$T/$_sm_name.$_sm_k.log" "$_sm_db" "$T/$_sm_name.$_sm_k.out" \
		"$PY" "$CHECKS" "$T/s/$_sm_name.db" "$T/said.s" "$T/said.p"
}
OMPI="$MPIRUN $MPIRUN_FLAGS"
# shellcheck disable=SC2086
{
same mix 1 $OMPI
same mix 2 $OMPI
same mix 3 "$MPIRUN_MPICH"
same gen 2 $OMPI
same gen 4 "$MPIRUN_MPICH"
same mpi-pattern 3 $OMPI
same mpi-rma 2 $OMPI
same mpi-wins 3 $OMPI
same mpich 2 "$MPIRUN_MPICH"
same nccl 2 $OMPI
same nccl 3 "$MPIRUN_MPICH"
same nsynth 3 $OMPI
same nccl-ranks 3 $OMPI
same sys 3 $OMPI
same sys 4 "$MPIRUN_MPICH"
same sampled 2 $OMPI
}

# A window that starts inside an NCCL instance, between its first two ranks' device spans:
# only what it kept is drawn, on either side.
WINDOW=$(sqlite3 "$T/s/nccl-ranks.db" "WITH i AS (SELECT c.id FROM collectives c
	JOIN collective_members m ON m.collective_id = c.id WHERE c.runtime = 'nccl'
	GROUP BY c.id HAVING COUNT(DISTINCT m.device_start_ns) >= 3 ORDER BY c.id LIMIT 1),
	m AS (SELECT * FROM collective_members WHERE collective_id = (SELECT id FROM i)),
	s AS (SELECT device_start_ns t FROM m WHERE t IS NOT NULL ORDER BY t LIMIT 2)
	SELECT '--start ' || (SUM(t) / 2000.0) || ' --end ' ||
	((SELECT MAX(device_end_ns) FROM m) / 1000.0 + 100) FROM s")
# shellcheck disable=SC2086
serial nccl-ranks@window $WINDOW &&
	[ "$(sqlite3 "$T/s/nccl-ranks@window.db" "SELECT COUNT(*) FROM flows f JOIN strings c
		ON c.id = f.category_id WHERE c.string = 'nccl'")" -gt 0 ]
ok $? "nccl-ranks with a window that starts inside an instance ($WINDOW): the serial database has NCCL arrows"
# shellcheck disable=SC2086
same nccl-ranks@window 2 $OMPI -- $WINDOW

check "-v: the first analysis process says how many rows it wrote in all and how long the other parts took" \
	sh -c '$1 -np 2 "$2" --parallel -v "$3" --format sqlite -o "$4" 2>"$5" &&
		[ "$(grep -c "^tprof-analyze: SQLite: [0-9]* rows in .* other parts, links, indexes and views" "$5")" = 1 ]' \
	- "$OMPI" "$ANALYZE" "$T/gen" "$T/p/v.db" "$T/v.log"

# An analysis process that cannot write its part: no database, nothing left, the earlier one
# as it was.  (The first process writes FILE's temporary; the others' parts are FILE.part-N's,
# here made impossible by a directory in the way of the second's name.)
mkdir -p "$T/fail" && cp "$T/s/gen.db" "$T/fail/gen.db" && mkdir "$T/fail/gen.db.part-0001"
# shellcheck disable=SC2086
$OMPI -np 2 "$ANALYZE" --parallel "$T/gen" --format sqlite -o "$T/fail/gen.db" >/dev/null 2>"$T/fail.log"
rc=$?
sed 's/^/# /' "$T/fail.log" | head -4
check "a part that cannot be written: exit status 1, the earlier database as it was, nothing else left" \
	sh -c '[ "$1" = 1 ] && cmp -s "$2/gen.db" "$3" && [ "$(ls "$2" | wc -l)" = 2 ] &&
		grep -q "gen.db.part-0001" "$4"' - "$rc" "$T/fail" "$T/s/gen.db" "$T/fail.log"
finish
