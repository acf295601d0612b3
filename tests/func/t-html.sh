#!/bin/sh
# tprof-analyze --format html: the report of profiles of every kind — a synthetic MPI job with
# NCCL and kernels (tools/gen-profile), 4 real MPI ranks over the stand-in HIP and NCCL
# (apps/diag-causes), the stand-in Neuron runtime (apps/nrt-synth), a PyTorch trace imported
# (tests/traces), a system profile (--sample) and 1,024 ranks — opened in headless Chromium
# (tools/browser.py): the page asks for nothing but itself and logs no error, every number
# it shows is the summary document's (--diagnose -s --summary-format json), each section is
# drawn (a screenshot of it is not blank).  The file stays under 5 MB for 1,024 ranks;
# --parallel writes the same page; names that are markup stay text.  The
# options: the default name, -o -, a name that says the format, what it is not combined with,
# and a file at -o that is not a report.
. "$(dirname "$0")/lib.sh"
[ -n "${TPROF_BROWSER:-}" ] && [ "$TPROF_BROWSER" != no ] ||
	skip_all "no headless Chromium (configure found none; on Debian: apt-get install chromium-headless-shell)"
GEN="$top_builddir/tests/tools/gen-profile"
SHOTS="$T/shots"
plan 44

# report NAME DIR [SECTION...]: DIR's report and summary document, then the page's checks.
report() {
	_n=$1 _d=$2
	shift 2
	"$ANALYZE" "$_d" --format html -o "$T/$_n.html" 2>"$T/$_n.err" &&
		grep -q "HTML report written to $T/$_n.html" "$T/$_n.err" &&
		"$ANALYZE" "$_d" --diagnose -s --summary-format json >"$T/$_n.json" 2>>"$T/$_n.err"
	ok $? "$_n: the report written"
	[ $? -eq 0 ] || diag "$(tail -n 3 "$T/$_n.err")"
	pycheck "$_n: in the browser, no request, no error, the summary's numbers, each section drawn" \
		report "$T/$_n.html" "$T/$_n.json" "$SHOTS/$_n" "$@"
}

# A synthetic job: MPI messages and collectives, NCCL all-reduces, kernels, steps.
"$GEN" -r 8 -s 300 -n -k -t 1000 "$T/gen" >/dev/null
report gen "$T/gen" findings overview time steps stepmap tops matrix ranks
pycheck "gen: the timeline: a strip a process and stream, a finding's time shown on a click, \
keys zoom" timeline "$T/gen.html" "$T/gen.json"
pycheck "gen: the step map: each rank's steps, each step's longest and waits the summary's" \
	stepmap "$T/gen.html" "$T/gen.json"
pycheck "gen: the communication matrix holds the summary's messages and bytes" \
	matrix "$T/gen.html" "$T/gen.json"
pycheck "gen: dark (the timeline drawn again) and print (a PDF)" modes "$T/gen.html" "$SHOTS/gen"

# Real MPI ranks over the stand-in HIP and NCCL: one rank comes late to the all-reduce, by
# 400 ms (more than a busy machine stalls a rank for: the top finding is that one).
if [ -x "$APPS/diag-causes" ] && [ "$MPIRUN" != no ] && [ -e "$STANDIN_LIBDIR/libnccl.so.2" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$INSPECT" -o "$T/mpi" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/diag-causes" late-coll \
		2 3 400 >"$T/mpi.out" 2>&1
	ok $? "mpi: 4 ranks recorded"
	report mpi "$T/mpi" findings overview time steps stepmap tops ranks
	pycheck "mpi: the timeline: a strip a rank, the late rank busy while the others wait, \
a finding's time shown on a click, keys zoom" timeline "$T/mpi.html" "$T/mpi.json" late
	pycheck "mpi: the step map: each rank's steps, each step's longest and waits the summary's" \
		stepmap "$T/mpi.html" "$T/mpi.json"
	pycheck "mpi: the communication matrix holds the summary's messages" \
		matrix "$T/mpi.html" "$T/mpi.json"
else
	skips 6 "apps/diag-causes was not built (it needs mpicc, mpirun and the stand-in NCCL)"
fi

# NCCL sends and receives (apps/nccl-ranks: a ring of sends, and pairs on two communicators
# of half the ranks): in the matrix by world rank.
if [ -x "$APPS/nccl-ranks" ] && [ "$MPIRUN" != no ] && [ -e "$STANDIN_LIBDIR/libnccl.so.2" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$INSPECT" -o "$T/nccl" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/nccl-ranks" \
		>"$T/nccl.out" 2>&1
	ok $? "nccl: 4 ranks recorded"
	report nccl "$T/nccl" overview time tops matrix
	pycheck "nccl: the communication matrix holds the summary's sends and receives" \
		matrix "$T/nccl.html" "$T/nccl.json"
else
	skips 4 "apps/nccl-ranks was not built (it needs mpicc, mpirun and the stand-in NCCL)"
fi

# The stand-in Neuron runtime.
"$APPS/nrt-synth" "$T/nrt" >/dev/null 2>"$T/nrt.gen.err"
ok $? "nrt: the profile written"
report nrt "$T/nrt" findings tops

# A PyTorch trace imported alone (HTA's AlexNet), then with a profile.
"$ANALYZE" --import "$top_srcdir/tests/traces/hta-alexnet.json.gz" --format html \
	-o "$T/torch.html" 2>"$T/torch.err" &&
	"$ANALYZE" --import "$top_srcdir/tests/traces/hta-alexnet.json.gz" --diagnose -s \
		--summary-format json >"$T/torch.json" 2>>"$T/torch.err"
ok $? "torch: the report of an imported trace written"
pycheck "torch: in the browser, no request, no error, the summary's numbers, each section drawn" \
	report "$T/torch.html" "$T/torch.json" "$SHOTS/torch" tops

# Names that are markup: they must stay text (the data element not ended, no script run).
BAD='</script><script>document.body.dataset.owned="yes"</script><!--<script>'
"$PY" -c 'import json, sys
e = [{"ph": "X", "name": sys.argv[1], "pid": 1, "tid": 1, "ts": t, "dur": 5} for t in (0, 10)]
json.dump({"traceEvents": e}, open(sys.argv[2], "w"))' "$BAD" "$T/bad.json"
"$ANALYZE" --import "$T/bad.json" --format html -o "$T/bad.html" 2>"$T/bad.err"
ok $? "hostile: the report of a trace whose names are markup written"
pycheck "hostile: drawn, no error, no script of the profile's run, the name shown as text" \
	hostile "$T/bad.html" "$BAD"

# A system profile (/proc, as any user may).
TPROF_SAMPLE_BPF=0 "$INSPECT" --sample all -o "$T/sys" -- "$APPS/sysload" all 8 400 \
	>/dev/null 2>"$T/sys.rec.err"
[ $? -eq 3 ]   # sysload's own status
ok $? "sys: a system profile recorded"
report sys "$T/sys" findings system threads
pycheck "sys: the busiest threads' states, their time on a CPU as the summary's" \
	threads "$T/sys.html" "$T/sys.json"

# 1,024 ranks: under 5 MB; the load time is said, not judged (a loaded machine is slower).
"$GEN" -r 1024 -s 4 -n -k -t 1000 "$T/big" >/dev/null
report big "$T/big" findings overview time steps stepmap tops matrix ranks
pycheck "big: the timeline of 1,024 ranks" timeline "$T/big.html" "$T/big.json"
pycheck "big: the step map of 1,024 ranks" stepmap "$T/big.html" "$T/big.json"
pycheck "big: the communication matrix of 1,024 ranks" matrix "$T/big.html" "$T/big.json"
pycheck "big: no thread states when none was recorded" threads "$T/big.html" "$T/big.json"
_size=$(wc -c <"$T/big.html")
[ "$_size" -le 5000000 ]
ok $? "big: the report of 1,024 ranks is under 5 MB ($_size bytes)"

# Under --parallel, the same page (the system profile's thread states too).
for _p in gen sys; do
	if [ "$MPIRUN" != no ]; then
		"$MPIRUN" $MPIRUN_FLAGS -np 2 "$ANALYZE_ONLY" --parallel "$T/$_p" --format html \
			-o "$T/par.html" >"$T/par.out" 2>&1 &&
			"$ANALYZE" "$T/$_p" --format html -o "$T/ser.html" 2>/dev/null &&
			cmp -s "$T/par.html" "$T/ser.html"
		ok $? "--parallel: the same page of $_p, written by the first analysis process"
	else
		skip "no mpirun"
	fi
done

# The options.
(cd "$T" && "$ANALYZE" gen --format html 2>"$T/def.err") && [ -s "$T/gen.html" ] &&
	grep -q "HTML report written to gen.html" "$T/def.err"
ok $? "the default name: NAME.html in the current directory"
"$ANALYZE" "$T/gen" -o "$T/named.htm" 2>"$T/n.err" && head -c 600 "$T/named.htm" |
	grep -q '<meta name="generator" content="tprof-analyze --format html">'
ok $? "-o NAME.htm chooses the format"
"$ANALYZE" "$T/gen" --format html -o - >"$T/stdout.html" 2>"$T/s.err" &&
	cmp -s "$T/stdout.html" "$T/named.htm" && ! grep -q "written to" "$T/s.err"
ok $? "-o -: the page on standard output, the same"
"$ANALYZE" "$T/gen" --format html -o "$T/named.htm" 2>"$T/r.err"
ok $? "an earlier report at -o is replaced"
echo "not a report" >"$T/other.html"
! "$ANALYZE" "$T/gen" --format html -o "$T/other.html" 2>"$T/o.err" &&
	grep -q "exists and is not a report tprof wrote" "$T/o.err" &&
	[ "$(cat "$T/other.html")" = "not a report" ]
ok $? "a file at -o that is no report is refused and left as it was"
"$ANALYZE" "$T/gen" --format html --split steps:2 -o "$T/x.html" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--split is for a trace written with --format chrome or perfetto" "$T/err"
ok $? "--split with --format html: a usage error"
"$ANALYZE" "$T/gen" --format html --group-by domain -o "$T/x.html" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q -- "--group-by is for --format chrome and perfetto" "$T/err"
ok $? "--group-by with --format html: a usage error"
"$ANALYZE" "$T/gen" --format html -o "$T/x.json" >"$T/out" 2>"$T/err"
[ $? -eq 2 ] && grep -q "x.json" "$T/err"
ok $? "-o x.json with --format html: a usage error naming it"
