#!/bin/sh
# tprof-analyze --format sqlite on real profiles: the test programs under tprof-inspect (HIP
# launches and copies on the stand-in runtime, an MPI job on 4 ranks, NCCL collectives on 4
# ranks of the stand-in, NRT executions on two NeuronCores, training steps with marks and
# counters, roctx ranges across threads, and a --steps window).  SQL run with the sqlite3
# shell (lib-sqlite.py) must find what the summary prints — kernels, busy share per device
# and NeuronCore, API calls (runs of MPI polls poll by poll), MPI messages and collectives,
# NCCL bandwidths and waits, steps
# — and as many slices, instants, async ranges, counter samples and flows as the Chrome
# trace, each slice with Chrome's track, times, name and arguments; every device operation
# linked to its launching call and every flow to its slices.  Then the refusals: -o
# missing, '-o -', a directory that cannot be written, an existing file that is no tprof
# database (left as it was); the replacements of an empty file and of an earlier one; and a
# run whose writing fails, which leaves the earlier database as it was and no temporary file.
. "$(dirname "$0")/lib.sh"
command -v sqlite3 >/dev/null 2>&1 ||
	skip_all "no sqlite3 shell (on Debian: apt-get install sqlite3; scripts/install-deps.sh installs it)"
plan 66
LIB="$top_srcdir/tests/tools/lib-sqlite.py"
sq() { "$PY" "$LIB" "$@"; }

# analyze NAME [OPTIONS...]: the database, the Chrome trace and the summary of $T/NAME.
analyze() {
	_n=$1
	shift
	"$ANALYZE" "$T/$_n" "$@" --format sqlite -o "$T/$_n.db" 2>"$T/$_n.an.err" &&
		"$ANALYZE" "$T/$_n" "$@" --format chrome -o "$T/$_n.json" 2>>"$T/$_n.an.err" &&
		"$ANALYZE" "$T/$_n" "$@" --summary >"$T/$_n.sum" 2>>"$T/$_n.an.err"
	ok $? "$_n: tprof-analyze writes the database, the Chrome trace and the summary"
	grep -q "SQLite database written to $T/$_n.db" "$T/$_n.an.err" || diag "$(cat "$T/$_n.an.err")"
}

# same NAME: the counts and every slice compared with the Chrome trace (two results).
same() {
	sq counts "$T/$1.db" "$T/$1.json"
	ok $? "$1: as many slices, instants, async ranges, counter samples and flows as Chrome"
	sq args "$T/$1.db" "$T/$1.json"
	ok $? "$1: every slice on Chrome's track, with its times, name, category and arguments"
}

skip_n() { _k=$1; shift; while [ "$_k" -gt 0 ]; do skip "$*"; _k=$((_k - 1)); done; }

# ---- steps, marks, counters, ranges; a window ----------------------------------------------
"$INSPECT" -o "$T/steps" -- "$APPS/steps" 2 >/dev/null 2>"$T/steps.err"
ok $? "steps: recorded"
analyze steps
same steps
sq steps "$T/steps.db" "$T/steps.sum"
ok $? "steps: the steps' count and total time are the summary's"
check "steps: meta says what the database is" test "$(sqlite3 "$T/steps.db" \
	"SELECT (SELECT value FROM meta WHERE key = 'schema_version') || ' ' ||
		(SELECT value FROM meta WHERE key = 'profile')")" = "1 $T/steps"
check "steps: the file is a database tprof wrote (application id 0x74707266)" test \
	"$(sqlite3 "$T/steps.db" 'PRAGMA application_id')" = 1953526374
check "steps: one process, its command line, a thread track, a steps track, a counters track" test \
	"$(sqlite3 "$T/steps.db" "SELECT (SELECT COUNT(*) || ' ' || (command LIKE '%steps 2') FROM processes)
		|| ' ' || (SELECT group_concat(kind, ',') FROM (SELECT DISTINCT kind FROM tracks ORDER BY kind))")" = \
	"1 1 counters,steps,thread"
# A flow's ends are found by the slices index read backwards: sorting a track's earlier
# slices for each end made hpcc's 2-rank profile take more than 10 minutes.
check "steps: the innermost slice around a time comes from the index, no sort" sh -c '
	plan=$(sqlite3 "$1" "EXPLAIN QUERY PLAN SELECT id FROM slices WHERE track_id = 1
		AND start_ns <= 5 AND end_ns >= 5 ORDER BY start_ns DESC, depth DESC LIMIT 1")
	echo "$plan" | grep -q "USING INDEX slices_by_track" && ! echo "$plan" | grep -q "TEMP B-TREE"
' sh "$T/steps.db"
analyze steps --steps 2:4
# the window's own files (analyze wrote steps.db etc. again: compare those)
same steps
check "steps --steps 2:4: three steps, and meta gives the window" test "$(sqlite3 "$T/steps.db" \
	"SELECT (SELECT COUNT(*) FROM steps) || ' ' || (SELECT value FROM meta WHERE key = 'window')")" = \
	"3 steps 2 to 4"

# ---- roctx ranges across threads -----------------------------------------------------------
if [ -x "$APPS/roctx-ranges" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$INSPECT" -o "$T/roctx" -- "$APPS/roctx-ranges" >/dev/null 2>"$T/roctx.err"
	ok $? "roctx: recorded"
	analyze roctx
	same roctx
	check "roctx: the range crossing threads is one async range" test \
		"$(sqlite3 "$T/roctx.db" "SELECT COUNT(*) || ' ' || MIN(s.string) FROM async_slices a
			JOIN strings s ON s.id = a.name_id")" = "1 crosses threads"
else
	skip_n 5 "roctx-ranges was not built"
fi

# ---- HIP: kernels and copies on 2 devices x 2 streams --------------------------------------
if [ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ] && [ -x "$APPS/hip-multi" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		STANDIN_HIP_KERNEL_US="scale_a:300,shift_b:500" \
		"$INSPECT" -o "$T/hip" -- "$APPS/hip-multi" 10 >/dev/null 2>"$T/hip.err"
	ok $? "hip: recorded"
	analyze hip
	same hip
	sq kernels "$T/hip.db" "$T/hip.sum"
	ok $? "hip: the kernels' calls, total, min and max time are the summary's"
	sq busy "$T/hip.db" "$T/hip.sum" gpu
	ok $? "hip: each GPU's operations, busy time and busy share are the summary's"
	sq api "$T/hip.db" "$T/hip.sum" hip "HIP API"
	ok $? "hip: the HIP API calls' counts and times are the summary's"
	sq links "$T/hip.db"
	ok $? "hip: every device operation linked to its launching call, every flow to its slices"
	check "hip: 40 kernels launched by hipLaunchKernel with their grid, 4 copies with bytes" test \
		"$(sqlite3 "$T/hip.db" "SELECT (SELECT COUNT(*) FROM named_device_ops WHERE kind = 'kernel'
			AND launched_by = 'hipLaunchKernel' AND grid_x > 0 AND block_x > 0) || ' ' ||
			(SELECT COUNT(*) FROM device_ops WHERE kind = 'copy' AND bytes > 0
			AND copy_kind IN ('HtoD', 'DtoH'))")" = "40 4"
else
	skip_n 9 "no stand-in HIP runtime or hip-multi (configure found no HIP headers or hipcc)"
fi

# ---- MPI: messages and collectives on 4 ranks ----------------------------------------------
if [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ] && [ -x "$APPS/mpi-pattern" ] && [ -x "$APPS/mpi-polls" ]; then
	OMPI_MCA_mpi_yield_when_idle=1 "$INSPECT" -o "$T/mpi" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 \
		"$APPS/mpi-pattern" >"$T/mpi.truth" 2>"$T/mpi.err"
	ok $? "mpi: recorded ($(cat "$T/mpi.truth"))"
	analyze mpi
	same mpi
	sq messages "$T/mpi.db" "$T/mpi.sum"
	ok $? "mpi: the messages by size add up to the summary's count and bytes"
	pycheck "mpi: as many messages as the program sent" mpi-message-count "$T/mpi.truth" \
		"$T/mpi.db"
	sq links "$T/mpi.db"
	ok $? "mpi: every message and collective arrow from and to its slices"
	sq mpi-colls "$T/mpi.db" "$T/mpi.sum"
	ok $? "mpi: the collectives' instances, durations and waits are the summary's"
	sq api "$T/mpi.db" "$T/mpi.sum" mpi MPI
	ok $? "mpi: the MPI calls' counts and times are the summary's"
	# (its ranks spin: a million yielding polls crawl on a loaded machine, see t-mpi-polls.sh)
	OMPI_MCA_mpi_yield_when_idle=0 "$INSPECT" -o "$T/polls" -- "$MPIRUN" $MPIRUN_FLAGS -np 2 \
		"$APPS/mpi-polls" >/dev/null 2>"$T/polls.err"
	ok $? "polls: recorded"
	analyze polls
	sq api "$T/polls.db" "$T/polls.sum" mpi MPI
	ok $? "polls: every poll of a run counted, with its time, as the summary counts them"
	check "mpi: ranks 0..3, every collective with all its members, clock offsets measured" test \
		"$(sqlite3 "$T/mpi.db" "SELECT (SELECT group_concat(rank, ',') FROM (SELECT rank FROM processes ORDER BY id))
			|| ' ' || (SELECT COUNT(*) FROM collectives WHERE seen != ranks OR incomplete)
			|| ' ' || (SELECT COUNT(*) > 0 FROM clock_offsets WHERE measured_at = 'MPI_Init')")" = "0,1,2,3 0 1"
else
	skip_n 14 "no mpirun or apps/mpi-pattern (configure found no mpicc)"
fi

# ---- NCCL: collectives, groups and sends on 4 ranks ----------------------------------------
if [ -x "$APPS/nccl-ranks" ] && [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ] &&
	[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnccl.so.2" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" OMPI_MCA_mpi_yield_when_idle=1 \
		"$INSPECT" -o "$T/nccl" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/nccl-ranks" \
		>/dev/null 2>"$T/nccl.err"
	ok $? "nccl: recorded"
	analyze nccl
	same nccl
	sq nccl "$T/nccl.db" "$T/nccl.sum"
	ok $? "nccl: calls, device time, algbw, busbw and wait of each collective are the summary's"
	sq api "$T/nccl.db" "$T/nccl.sum" nccl "NCCL API"
	ok $? "nccl: the NCCL API calls' counts and times are the summary's"
	sq busy "$T/nccl.db" "$T/nccl.sum" gpu
	ok $? "nccl: each GPU's busy share (collectives and copies) is the summary's"
	sq links "$T/nccl.db"
	ok $? "nccl: every collective span linked to its launching call, every flow to its slices"
	check "nccl: every instance on all its ranks, each rank's part with its call and device span" test \
		"$(sqlite3 "$T/nccl.db" "SELECT COUNT(*) FROM collectives c WHERE runtime = 'nccl' AND (incomplete
			OR seen != (SELECT COUNT(*) FROM collective_members m WHERE m.collective_id = c.id
			AND m.entry_ns IS NOT NULL AND m.device_start_ns >= m.entry_ns))")" = 0
else
	skip_n 10 "no stand-in NCCL, mpirun or apps/nccl-ranks"
fi

# ---- NRT: executions on two NeuronCores ----------------------------------------------------
if [ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libnrt.so.1" ] && [ -x "$APPS/nrt-threads" ]; then
	"$APPS/mkneff" "$T/a.neff" mlp-small exec_us=20000 in=x:4096 out=z:4096 &&
		"$APPS/mkneff" "$T/b.neff" conv-big exec_us=30000 in=img:65536 out=map:32768 &&
		LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
			"$INSPECT" -o "$T/nrt" -- "$APPS/nrt-threads" -n 3 -e "$T/a.neff" "$T/b.neff" \
			>/dev/null 2>"$T/nrt.err"
	ok $? "nrt: recorded"
	analyze nrt
	same nrt
	sq busy "$T/nrt.db" "$T/nrt.sum" neuroncore
	ok $? "nrt: each NeuronCore's executions and busy share are the summary's"
	sq api "$T/nrt.db" "$T/nrt.sum" nrt "NRT API"
	ok $? "nrt: the NRT API calls' counts and times are the summary's"
	sq links "$T/nrt.db"
	ok $? "nrt: every execution linked to its nrt_execute call, every arrow to its slices"
	check "nrt: executions named by their models, with their bytes, the failed ones marked" test \
		"$(sqlite3 "$T/nrt.db" "SELECT group_concat(name || ':' || n || ':' || b, ' ') FROM (SELECT name,
			COUNT(*) AS n, MIN(bytes) AS b FROM named_device_ops WHERE kind = 'execution'
			AND NOT failed GROUP BY name ORDER BY name)")" = "conv-big:3:98304 mlp-small:3:8192"
else
	skip_n 8 "no stand-in libnrt.so.1 or apps/nrt-threads"
fi

# ---- refusals and replacements -------------------------------------------------------------
"$ANALYZE" "$T/steps" --format sqlite >"$T/o.txt" 2>&1
check "-o missing: a usage error (status 2) that says so" test $? = 2 -a -n \
	"$(grep 'format sqlite needs -o FILE' "$T/o.txt")"
"$ANALYZE" "$T/steps" --format sqlite -o - >"$T/o.txt" 2>&1
check "'-o -': a usage error" test $? = 2 -a -n "$(grep "'-o -' is not possible" "$T/o.txt")"
: >"$T/no"
"$ANALYZE" "$T/steps" --format sqlite -o "$T/no/such/dir/x.db" >"$T/o.txt" 2>&1
rc=$?
check "an unwritable path: refused before reading (status 2), nothing created" test $rc = 2 -a -n \
	"$(grep "no/such/dir" "$T/o.txt")" -a -f "$T/no" -a ! -s "$T/no"
printf 'notes that matter\n' >"$T/notes.txt"
"$ANALYZE" "$T/steps" --format sqlite -o "$T/notes.txt" >"$T/o.txt" 2>&1
rc=$?
check "an existing text file: refused (status 2), said, left as it was" test $rc = 2 -a -n \
	"$(grep 'not an SQLite database; not replacing it' "$T/o.txt")" -a \
	"$(cat "$T/notes.txt")" = "notes that matter"
sqlite3 "$T/other.db" "CREATE TABLE t (x); INSERT INTO t VALUES (42)"
"$ANALYZE" "$T/steps" --format sqlite -o "$T/other.db" >"$T/o.txt" 2>&1
rc=$?
check "another program's database: refused, said, left as it was" test $rc = 2 -a -n \
	"$(grep 'tprof did not write' "$T/o.txt")" -a "$(sqlite3 "$T/other.db" 'SELECT x FROM t')" = 42
: >"$T/empty.db"
"$ANALYZE" "$T/steps" --format sqlite -o "$T/empty.db" 2>"$T/o.txt" &&
	"$ANALYZE" "$T/roctx" --format sqlite -o "$T/empty.db" 2>>"$T/o.txt"
check "an empty file, then tprof's own database: replaced" test $? = 0 -a \
	"$(sqlite3 "$T/empty.db" "SELECT value FROM meta WHERE key = 'profile'")" = "$T/roctx"
cp "$T/empty.db" "$T/keep.db"
(trap '' XFSZ; ulimit -f 100; "$ANALYZE" "$T/steps" --format sqlite -o "$T/keep.db") >"$T/o.txt" 2>&1
rc=$?
check "a write that fails (a file size limit): status 1, said, the earlier database as it was" \
	test $rc = 1 -a -n "$(grep 'keep.db was not written; a file of that name is left as it was' \
	"$T/o.txt")" -a "$(sqlite3 "$T/keep.db" "SELECT value FROM meta WHERE key = 'profile'")" = "$T/roctx"
check "no temporary file is left beside the databases" test -z "$(ls "$T" | grep '\.tmp-')"
"$ANALYZE" "$T/steps" --format sqlite -o "$T/g.db" --group-by domain >"$T/o.txt" 2>&1
check "--group-by: a usage error (the database has one layout)" test $? = 2
finish
