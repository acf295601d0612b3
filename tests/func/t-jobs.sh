#!/bin/sh
# Jobs: every file of a run carries the run's job id (file header, docs/FORMAT.md §5.1), so
# that runs written into one directory are never merged.  tprof-inspect refuses a directory
# holding another job's profile unless given --append or --replace, and its default directory
# is a new numbered one; runs through the environment alone make a job per launch that every
# descendant inherits; tprof-analyze names the jobs it finds, analyzes the latest unless --job
# says otherwise, and reads profiles written before jobs existed as one job.
. "$(dirname "$0")/lib.sh"
plan 39

# jobs DIR: "ID:COUNT ..." of the chunk files under DIR, by the job in their headers.
jobs() { "$PY" -B "$CHECKS" job-counts "$1"; }
# ids DIR: the job ids alone, one per line.
ids() { jobs "$1" | tr ' ' '\n' | sed 's/:.*//'; }
# summary_line FILE KEY: the text after "KEY:" in a text summary.
summary_line() { sed -n "s/^  $2: *//p" "$1"; }

# ---- two runs into one directory ----------------------------------------------------------
D="$T/d"
"$INSPECT" -o "$D" -- "$APPS/threads" 1 10 >/dev/null 2>"$T/r1.err"
rc=$?
A=$(ids "$D")
[ "$rc" -eq 0 ] && [ "$(jobs "$D")" = "$A:1" ] && [ "$A" != 0000000000000000 ]
ok $? "a run's chunk file carries a job id in its header (got '$(jobs "$D")')"

"$INSPECT" -o "$D" -- sh -c 'touch "$1"; exec "$2" 1 10' sh "$T/ran2" "$APPS/threads" \
	>"$T/r2.out" 2>"$T/r2.err"
rc=$?
[ "$rc" -eq 2 ] && [ ! -e "$T/ran2" ] && [ ! -s "$T/r2.out" ] && [ "$(jobs "$D")" = "$A:1" ]
ok $? "a second run into the directory is refused: exit 2 (got $rc), the command never ran"
grep -q "^tprof-inspect: output directory '$D' already holds the profile of another job: job $A (started [0-9-]* [0-9:]* UTC, 1 process)" "$T/r2.err" &&
	grep -q -- "--append" "$T/r2.err" && grep -q -- "--replace" "$T/r2.err"
rc=$?
ok $rc "the refusal names the directory, the job found (id, start, processes) and both options"
[ $rc -eq 0 ] || diag "$(cat "$T/r2.err")"

"$INSPECT" -o "$D" --append -- "$APPS/threads" 2 10 >/dev/null 2>"$T/r3.err"
rc=$?
B=$(ids "$D" | grep -v "^$A\$")
[ "$rc" -eq 0 ] && [ -n "$B" ] && [ "$(jobs "$D")" = "$(printf '%s\n' "$A:1" "$B:1" | sort | tr '\n' ' ' | sed 's/ $//')" ]
ok $? "--append: both jobs' files are there, one process each (got '$(jobs "$D")')"
grep -qx "tprof-inspect: profile written to $D (1 process)" "$T/r3.err" &&
	grep -qx "tprof-inspect: next: tprof-analyze $D --job $B --summary" "$T/r3.err"
rc=$?
ok $rc "--append: the footer counts this job's processes and says how to pick it"
[ $rc -eq 0 ] || diag "$(cat "$T/r3.err")"

"$ANALYZE" "$D" --summary >"$T/s.txt" 2>"$T/s.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(wc -l <"$T/s.err")" -eq 1 ] &&
	grep -q "^tprof-analyze: $D holds 2 jobs; analyzing the latest, $B (.* 1 process: .*threads 2 10); not analyzed: $A (.* 1 process: .*threads 1 10); choose with --job ID or --job all\$" "$T/s.err"
rc=$?
ok $rc "the analyzer says in one line that it takes the latest job, naming both and --job"
[ $rc -eq 0 ] || diag "$(cat "$T/s.err")"
[ "$(summary_line "$T/s.txt" processes | sed 's/ .*//')" = 1 ] &&
	summary_line "$T/s.txt" job | grep -q "^$B (started .*, 1 process: .*threads 2 10)\$" &&
	summary_line "$T/s.txt" "other jobs" | grep -q '^1 in the directory'
rc=$?
ok $rc "the summary covers that job alone, and its header names it"
[ $rc -eq 0 ] || diag "$(head -8 "$T/s.txt")"

"$ANALYZE" "$D" --job all --summary >"$T/all.txt" 2>"$T/all.err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$T/all.err" ] && [ "$(summary_line "$T/all.txt" processes | sed 's/ .*//')" = 2 ] &&
	[ "$(grep -c '^  job: ' "$T/all.txt")" -eq 2 ]
ok $? "--job all: both jobs, 2 processes, a header line per job"

short=$(echo "$A" | cut -c1-6)
"$ANALYZE" "$D" --job "$short" --summary >"$T/a.txt" 2>"$T/a.err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$T/a.err" ] && summary_line "$T/a.txt" job | grep -q "^$A " &&
	[ "$(summary_line "$T/a.txt" processes | sed 's/ .*//')" = 1 ]
ok $? "--job with the first 6 hex digits of an id picks that job"

"$ANALYZE" "$D" --job "$(echo "$A" | tr a-f A-F)" --summary >/dev/null 2>&1
ok $? "--job takes an id in capitals too"

"$ANALYZE" "$D" --job 77zz --summary >"$T/bad.out" 2>"$T/bad.err"
rc=$?
[ "$rc" -eq 2 ] && [ ! -s "$T/bad.out" ] && grep -q "^tprof-analyze: --job 77zz: no job of $D has that id" "$T/bad.err" &&
	grep -q "^tprof-analyze:   $A (" "$T/bad.err" && grep -q "^tprof-analyze:   $B (" "$T/bad.err"
ok $? "an unknown --job: exit 2 (got $rc), the error lists the jobs"
[ "$rc" -eq 2 ] || diag "$(cat "$T/bad.err")"

"$ANALYZE" "$D" --job all --summary=json >"$T/all.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" both-jobs-json "$T/all.json" "$A" "$B"
ok $? "JSON summary: header.jobs lists both jobs (id, start, processes, command)"

# --replace: the other jobs' files go, nothing else.
echo notes >"$D/notes.txt"
mkdir "$D/sub"
cp "$D"/*.tpf "$D/sub/"
"$INSPECT" -o "$D" --replace -- "$APPS/threads" 1 5 >/dev/null 2>"$T/r4.err"
rc=$?
C=$(ids "$D")
[ "$rc" -eq 0 ] && [ "$(jobs "$D")" = "$C:1" ] && [ "$C" != "$A" ] && [ "$C" != "$B" ] &&
	[ "$(cat "$D/notes.txt")" = notes ] && [ -d "$D/sub" ]
ok $? "--replace: only the new job's file remains (got '$(jobs "$D")'); other files stay"
grep -qx "tprof-inspect: removed 4 files of 2 other jobs from '$D'" "$T/r4.err"
rc=$?
ok $rc "--replace says what it removed"
[ $rc -eq 0 ] || diag "$(cat "$T/r4.err")"
"$ANALYZE" "$D" --summary >"$T/r4a.txt" 2>"$T/r4a.err"
[ $? -eq 0 ] && ! grep -q "jobs" "$T/r4a.err" && [ "$(grep -vc 'notes.txt' "$T/r4a.err")" -eq 0 ] &&
	summary_line "$T/r4a.txt" job | grep -q "^$C "
rc=$?
ok $rc "after --replace the analyzer finds the one job and says nothing about others"
[ $rc -eq 0 ] || diag "$(cat "$T/r4a.err")"

"$INSPECT" -o "$D" --append --replace -- true >/dev/null 2>"$T/ar.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot be given together" "$T/ar.err"
ok $? "--append with --replace: a usage error (got $rc)"
(cd "$T" && "$INSPECT" --append -- true) >/dev/null 2>"$T/an.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q -- "--append is for a directory given with -o" "$T/an.err" && ! ls -d "$T"/tprof-out-* >/dev/null 2>&1
ok $? "--append without -o: a usage error (got $rc)"

# ---- the numbered default directory -------------------------------------------------------
mkdir -p "$T/cwd/tprof-out-1"
echo mine >"$T/cwd/tprof-out-1/data"
(cd "$T/cwd" && "$INSPECT" -- "$APPS/threads" 1 5 >/dev/null 2>"$T/n1.err" &&
	"$INSPECT" -- "$APPS/threads" 1 6 >/dev/null 2>"$T/n2.err")
rc=$?
[ "$rc" -eq 0 ] && grep -qx "tprof-inspect: profile written to tprof-out-2 (1 process)" "$T/n1.err" &&
	grep -qx "tprof-inspect: profile written to tprof-out-3 (1 process)" "$T/n2.err"
rc=$?
ok $rc "the default directory is the first tprof-out-N that does not exist (tprof-out-2, then -3)"
[ $rc -eq 0 ] || diag "$(cat "$T/n1.err" "$T/n2.err")"
[ "$(ls "$T/cwd/tprof-out-1")" = data ] && [ "$(jobs "$T/cwd/tprof-out-2" | sed 's/.*://')" = 1 ] &&
	[ "$(jobs "$T/cwd/tprof-out-3" | sed 's/.*://')" = 1 ] &&
	[ "$(ids "$T/cwd/tprof-out-2")" != "$(ids "$T/cwd/tprof-out-3")" ]
ok $? "each numbered directory holds its own job; an existing tprof-out-1 is left alone"
grep -q "next: tprof-analyze tprof-out-2 --summary" "$T/n1.err"
ok $? "the footer names the numbered directory for the analyzer"

# ---- runs through the environment alone ---------------------------------------------------
E="$T/e"
record_env "$E" "$APPS/forkexec" fork-exec 10 >/dev/null 2>&1
J1=$(ids "$E")
[ "$(jobs "$E")" = "$J1:2" ] && [ "$J1" != 0000000000000000 ]
ok $? "fork and exec: parent and exec'ed child share one job (got '$(jobs "$E")')"
record_env "$E" "$APPS/forkexec" exec-noenv 10 >/dev/null 2>&1
J2=$(ids "$E" | grep -v "^$J1\$")
[ -n "$J2" ] && [ "$(jobs "$E" | tr ' ' '\n' | grep -c ':2$')" -eq 2 ]
ok $? "a second run is a job of its own, kept across an exec with an emptied environment (got '$(jobs "$E")')"
record_env "$E" sh -c '"$1" 1 5; "$1" 2 5' sh "$APPS/threads" >/dev/null 2>&1
[ "$(jobs "$E" | tr ' ' '\n' | grep -c ':2$')" -eq 3 ]
ok $? "a shell's two children: one job, that of the shell (got '$(jobs "$E")')"
"$ANALYZE" "$E" --job all --summary >"$T/e.txt" 2>"$T/e.err"
[ $? -eq 0 ] && [ "$(grep -c '^  job: ' "$T/e.txt")" -eq 3 ] &&
	[ "$(summary_line "$T/e.txt" processes | sed 's/ .*//')" = 6 ]
ok $? "the analyzer finds the three jobs, 6 processes in all"
"$ANALYZE" "$E" --job "$J1" --summary >"$T/e1.txt" 2>&1 &&
	[ "$(summary_line "$T/e1.txt" processes | sed 's/ .*//')" = 2 ] &&
	summary_line "$T/e1.txt" job | grep -q "^$J1 (started .*, 2 processes: .*forkexec fork-exec 10)\$"
rc=$?
ok $rc "--job picks the first run alone, named by its first process's command"
[ $rc -eq 0 ] || diag "$(head -6 "$T/e1.txt")"

TPROF_JOB=feedface record_env "$T/given" "$APPS/threads" 1 5 >/dev/null 2>&1
TPROF_JOB=my-run-1 record_env "$T/given2" "$APPS/threads" 1 5 >/dev/null 2>&1
TPROF_JOB=my-run-1 "$INSPECT" -o "$T/given2" -- "$APPS/threads" 1 5 >/dev/null 2>&1
[ "$(jobs "$T/given")" = "00000000feedface:1" ] &&
	[ "$(jobs "$T/given2" | sed 's/^[0-9a-f]\{16\}:2$/ok/')" = ok ]
ok $? "TPROF_JOB names the job: hex digits as they are, other text hashed alike everywhere (tprof-inspect too)"

# ---- profiles written before jobs were recorded --------------------------------------------
# Made from a fresh one by zeroing the job field of each header and redoing its CRC.
O="$T/old"
record_env "$O" "$APPS/forkexec" fork 10 >/dev/null 2>&1
"$PY" -B "$CHECKS" zero-jobs "$O"
[ "$(jobs "$O")" = "0000000000000000:2" ]
ok $? "(an old profile: two processes without a job id)"
"$ANALYZE" "$O" --summary >"$T/o.txt" 2>"$T/o.err"
[ $? -eq 0 ] && [ ! -s "$T/o.err" ] && [ "$(summary_line "$T/o.txt" processes | sed 's/ .*//')" = 2 ] &&
	summary_line "$T/o.txt" job | grep -q '^unknown (no job identity) (started .*, 2 processes: .*forkexec fork 10)$'
rc=$?
ok $rc "an old profile reads as one job, unknown, with both its processes"
[ $rc -eq 0 ] || diag "$(cat "$T/o.err")" "$(head -6 "$T/o.txt")"
"$ANALYZE" "$O" --summary=json 2>/dev/null | "$PY" -B "$CHECKS" old-job-null /dev/stdin
ok $? "JSON: its id is null"
"$INSPECT" -o "$O" -- "$APPS/threads" 1 5 >/dev/null 2>"$T/o2.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "job unknown (.*2 processes; no job identity" "$T/o2.err"
ok $? "tprof-inspect refuses a directory holding an old profile, as a job unknown"
"$INSPECT" -o "$O" --append -- "$APPS/threads" 1 5 >/dev/null 2>&1
"$ANALYZE" "$O" --job unknown --summary >"$T/ou.txt" 2>&1 &&
	[ "$(summary_line "$T/ou.txt" processes | sed 's/ .*//')" = 2 ] &&
	summary_line "$T/ou.txt" job | grep -q '^unknown'
ok $? "beside a new job, --job unknown picks the old profile"
"$ANALYZE" "$O" --summary >"$T/on.txt" 2>"$T/on.err" &&
	[ "$(summary_line "$T/on.txt" processes | sed 's/ .*//')" = 1 ] &&
	grep -q "analyzing the latest, [0-9a-f]\{16\} .*not analyzed: unknown (" "$T/on.err"
ok $? "and by default the new job, the old one named as unknown"

# A file whose headers are damaged names no job: it goes with the job analyzed.
X="$T/x"
record_env "$X" "$APPS/forkexec" fork 10 >/dev/null 2>&1
f=$(ls "$X"/*.tpf | head -n 1)
printf 'XXXX' | dd of="$f" bs=1 seek=0 conv=notrunc 2>/dev/null
"$ANALYZE" "$X" --summary >"$T/x.txt" 2>"$T/x.err"
[ $? -eq 0 ] && [ "$(summary_line "$T/x.txt" processes | sed 's/ .*//')" = 2 ] &&
	! grep -q "holds 2 jobs" "$T/x.err"
ok $? "a chunk file with a damaged header is read with the job analyzed"

# An ambiguous prefix.
TPROF_JOB=abcd000000000001 "$INSPECT" -o "$T/amb" -- "$APPS/threads" 1 5 >/dev/null 2>&1
TPROF_JOB=abcd000000000002 "$INSPECT" -o "$T/amb" --append -- "$APPS/threads" 1 5 >/dev/null 2>&1
"$ANALYZE" "$T/amb" --job abcd --summary >"$T/amb.out" 2>"$T/amb.err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "more than one job of .* has that id" "$T/amb.err" &&
	[ "$(grep -c '^tprof-analyze:   abcd00000000000[12] (' "$T/amb.err")" -eq 2 ]
ok $? "a prefix of two ids: exit 2 (got $rc), both listed"
"$ANALYZE" "$T/amb" --job abcd000000000002 --summary >"$T/amb2.txt" 2>&1 &&
	summary_line "$T/amb2.txt" job | grep -q '^abcd000000000002 '
ok $? "the whole id picks one"

# Framework traces beside the profile go with the job of their process.
cp -r "$T/amb" "$T/fw"
for f in "$T/fw"/*.tpf; do
	b=$(basename "$f" .tpf)
	hp=${b%.*}
	"$PY" -B "$CHECKS" framework-trace "$f" >"$T/fw/$hp.pt.trace.json"
done
"$ANALYZE" "$T/fw" --job abcd000000000001 --format chrome -o "$T/fw.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" framework-of-job "$T/fw.json"
ok $? "a framework trace of another job's process is left out"

# The system image the sampler writes beside the program's files is of the same job.
"$INSPECT" -o "$T/sys" --sample mem --sample-hz 50 -- "$APPS/threads" 1 5 >/dev/null 2>&1
[ "$(jobs "$T/sys" | sed 's/^[0-9a-f]\{16\}:2$/ok/')" = ok ] && [ "$(ids "$T/sys")" != 0000000000000000 ]
ok $? "--sample: the system image carries the run's job (got '$(jobs "$T/sys")')"

# The help of both tools tells about jobs.
"$INSPECT" --help | grep -q -- "--append" && "$INSPECT" --help | grep -q -- "--replace" &&
	"$INSPECT" --help | grep -q "tprof-out-N" && "$ANALYZE" --help | grep -q -- "--job ID"
ok $? "--help of tprof-inspect and tprof-analyze describes the options"
"$ANALYZE" --import "$T/fw/$(ls "$T/fw" | grep pt.trace | head -n 1)" --job all --summary >/dev/null 2>"$T/ij.err"
[ $? -eq 2 ] && grep -q -- "--job chooses among the jobs of DIR" "$T/ij.err"
ok $? "--job without DIR: a usage error"
finish
