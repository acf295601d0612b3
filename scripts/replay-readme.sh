#!/bin/sh
# replay-readme.sh — replays a newcomer's first hour with tprof, as the README tells it, so
# that the README and the programs cannot drift apart unnoticed.  In a fresh clone of this
# repository (its committed state, in a temporary directory; KEEP=1 keeps it), it takes the
# command blocks of the clone's own README.md — "## First steps", then the first screen (the
# block before it), then "## Try each runtime without a device" — strips their trailing
# `# comments`, and runs each line exactly as written, in that order, with sh from the
# clone's root.  Every command has a check here, keyed by its exact text: its exit status,
# the lines it must print (the summary's tables, quickstart's last line about PATH) and the
# files it must write, each read back with a real reader (Python's gzip and json for Chrome
# traces, tests/tools/pftrace.py with protoc for the Perfetto trace, otf2-print, the sqlite3
# shell, headless Chromium for the HTML report).  A README command without a check fails the replay before anything runs, so that
# an edit of those blocks makes this script follow.  One line is never run:
# ./scripts/check-all.sh, the suite this script is a stage of.  `./scripts/try.sh all` is
# run too, after the six runtimes one by one that it repeats (a few seconds).
# Prints each command with PASS, FAIL (why, and the end of its output) or SKIP, the seconds
# from the clone to the first summary that quickstart prints, and a last line; exits
# non-zero when any failed (77, saying why, when this is no git clone).  Run it as root, as
# CI does: quickstart then installs tprof into /usr/local (PREFIX is unset: a newcomer sets
# none).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tprof-replay.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
	trap 'echo "replay-readme: kept $tmp"' EXIT
else
	trap 'rm -rf "$tmp"' EXIT
fi
trap 'exit 130' INT TERM
unset PREFIX
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

if ! head=$(git -C "$top" rev-parse -q --verify HEAD 2>/dev/null); then
	echo "replay-readme: skipped: $top is not a git clone with a commit (a tarball's tree):" \
		"there is nothing to clone"
	exit 77
fi
if [ -n "$(git -C "$top" status --porcelain --untracked-files=no)" ]; then
	echo "replay-readme: note: the changes not committed in $top are not replayed"
fi

t0=$(now)
clone=$tmp/tprof
# The commit checked out here, even when a clone would take a branch's.
if ! git clone -q "$top" "$clone" || ! git -C "$clone" checkout -q --detach "$head"; then
	echo "replay-readme: FAIL: git clone of $top failed" >&2
	exit 1
fi
echo "replay-readme: cloned $top ($(git -C "$clone" log -1 --format='%h %s')) into $clone"

# ---------------------------------------------------------------- the README's commands
# blocks SECTION: the command lines of the ``` blocks of SECTION of the clone's README.md
# (first: the lines before "## First steps"; else the "## " heading that starts with
# SECTION, up to the next heading), their trailing "  # comment" stripped, empty lines and
# whole-line comments left out.
blocks() {
	awk -v want="$1" '
		NR == 1 { sec = "first" }
		/^## / && sec != "first" { sec = "other" }
		/^## First steps/ { sec = "First steps" }
		/^## Try each runtime without a device/ { sec = "Try each runtime without a device" }
		/^```/ { fence = !fence; next }
		fence && sec == want {
			sub(/[ \t]+#[ \t].*$/, ""); sub(/[ \t]+$/, "")
			if ($0 != "" && $0 !~ /^#/) print
		}' "$clone/README.md"
}
: >"$tmp/commands"
for s in "First steps" first "Try each runtime without a device"; do
	blocks "$s" >"$tmp/section"
	if ! [ -s "$tmp/section" ]; then
		echo "replay-readme: FAIL: README.md has no command block in the section '$s'" >&2
		exit 1
	fi
	cat "$tmp/section" >>"$tmp/commands"
done

# check_of COMMAND: the name of the function that checks COMMAND's run (c_...), or skip_...
# for the one line not run; non-zero for a command this script does not know.
check_of() {
	case $1 in
	"./scripts/quickstart.sh") echo c_quickstart ;;
	"./scripts/check-all.sh") echo skip_check_all ;;
	"tprof-inspect -o out -- python3 examples/app.py") echo c_inspect_app ;;
	"tprof-analyze out --summary") echo c_summary ;;
	"tprof-analyze out --format chrome -o trace.json.gz") echo c_chrome ;;
	"tprof-analyze out --format perfetto") echo c_perfetto ;;
	"tprof-analyze out --format otf2 -o trace-otf2") echo c_otf2 ;;
	"tprof-analyze out --format sqlite -o prof.db") echo c_sqlite ;;
	"tprof-analyze out --format html") echo c_html ;;
	"make -C build try") echo c_make_try ;;
	"./scripts/try.sh hip") echo c_try_hip ;;
	"./scripts/try.sh mpi") echo c_try_mpi ;;
	"./scripts/try.sh nccl") echo c_try_nccl ;;
	"./scripts/try.sh neuron") echo c_try_neuron ;;
	"./scripts/try.sh torch") echo c_try_torch ;;
	"./scripts/try.sh system") echo c_try_system ;;
	"./scripts/try.sh all") echo c_try_all ;;
	*) return 1 ;;
	esac
}
unknown=0
while IFS= read -r cmd; do
	check_of "$cmd" >/dev/null && continue
	echo "replay-readme: FAIL: README command without a check: $cmd" >&2
	unknown=$((unknown + 1))
done <"$tmp/commands"
if [ "$unknown" -gt 0 ]; then
	echo "replay-readme: $unknown README command(s) without a check; add one to" \
		"check_of and its c_ function in scripts/replay-readme.sh (nothing was run)" >&2
	exit 1
fi
echo "replay-readme: $(wc -l <"$tmp/commands") commands from README.md, to run in this order:"
sed 's/^/  /' "$tmp/commands"

# ---------------------------------------------------------------- checks
# Each c_ function checks the run of its command: $rc its exit status, $log what it printed
# (stdout and stderr), the current directory the clone's root.  On failure it sets why and
# returns non-zero.
bad() {
	why=$1
	return 1
}
status0() { [ "$rc" -eq 0 ] || bad "exit status $rc"; }
# prints LINE...: each LINE is a whole line of the output.
prints() {
	for _l in "$@"; do
		grep -qxF -- "$_l" "$log" || bad "no line '$_l' in its output" || return
	done
}
# mentions TEXT...: each TEXT is in some line of the output.
mentions() {
	for _t in "$@"; do
		grep -qF -- "$_t" "$log" || bad "'$_t' is nowhere in its output" || return
	done
}
# chrome FILE PYTHON: FILE is a gzip'ed Chrome trace that Python's gzip and json read, whose
# events (ev: those that are not metadata; cats: their (ph, cat) counts, names: their
# (cat, name) counts) satisfy the Python expression PYTHON.
chrome() {
	_out=$(python3 - "$1" "$2" 2>&1 <<'EOF'
import collections, gzip, json, sys
with gzip.open(sys.argv[1], "rt", encoding="utf-8") as f:
    d = json.load(f)
ev = [e for e in d["traceEvents"] if e["ph"] != "M"]
cats = collections.Counter((e["ph"], e.get("cat")) for e in ev)
names = collections.Counter((e.get("cat"), e["name"]) for e in ev)
if not eval("(" + sys.argv[2] + ")"):
    sys.exit("not true of its %d events: %s; they are %s" % (len(ev), sys.argv[2], dict(cats)))
EOF
	) || bad "$1: $(echo "$_out" | tail -1)"
}
# the_summary NAME HEADING...: tprof-analyze printed the summary of the profile NAME, with each
# HEADING a line of its own.
the_summary() {
	_n=$1
	shift
	prints "tprof summary of $_n" "$@" && mentions "dropped:     0"
}

skip_check_all() {
	why="not run: it is the whole test suite, whose last stage is this replay (it would run itself)"
}

# Quickstart: installed, the sample's summary with its tables, its Chrome trace, and a last
# line about PATH; when that line is the export a newcomer is told to type, it is applied.
c_quickstart() {
	status0 || return
	prefix=$(sed -n 's/^quickstart: installed into //p' "$log")
	[ -n "$prefix" ] || bad "no line 'quickstart: installed into PREFIX'" || return
	the_summary "$clone/build/sample-profile" Ranges Steps Marks Counters || return
	mentions "reduce gradients" "checkpoint" "loss" || return
	prints "Chrome trace: $clone/build/sample-trace.json.gz  (open it at https://ui.perfetto.dev)" ||
		return
	chrome build/sample-trace.json.gz \
		'sum(n for (c, _), n in names.items() if c == "step") == 30 and names[("range", "forward")] == 30' ||
		return
	last=$(tail -n 1 "$log")
	case $last in
	"tprof-inspect and tprof-analyze are in $prefix/bin, on your PATH")
		[ "$(command -v tprof-inspect)" = "$prefix/bin/tprof-inspect" ] ||
			bad "its last line says tprof-inspect is on PATH, but PATH finds '$(command -v tprof-inspect)'"
		;;
	"  export PATH=\"$prefix/bin:\$PATH\"")
		PATH="$prefix/bin:$PATH"
		export PATH
		echo "  (its last line says to type: ${last#  }; done, as a newcomer would)"
		;;
	*) bad "its last line does not say where tprof-inspect is: '$last'" ;;
	esac
}

c_inspect_app() {
	status0 &&
		prints "tprof-inspect: profile written to out (1 process)" \
			"tprof-inspect: next: tprof-analyze out --summary" &&
		mentions "app.py: 5 steps" &&
		{ ls out/*.tpf >/dev/null 2>&1 || bad "no out/*.tpf"; }
}

# The first screen says: "tables: ranges, steps, marks, counters".
c_summary() {
	status0 && the_summary out Ranges Steps Marks Counters &&
		mentions "python3 app.py" "compute" "load batch" "batch mean" "done"
}

c_chrome() {
	status0 && prints "tprof-analyze: Chrome trace written to trace.json.gz" &&
		chrome trace.json.gz 'names[("range", "compute")] == 5 and names[("range", "load batch")] == 5
and names[("step", "step 4")] == 1 and names[("counter", "batch mean")] == 5
and names[("mark", "done")] == 1'
}

# The Perfetto trace, decoded by protoc against Perfetto's schema, holds what the Chrome
# trace of the same profile holds (tests/tools/pftrace.py compare).
c_perfetto() {
	status0 && prints "tprof-analyze: Perfetto trace written to out.pftrace" || return
	[ -s out.pftrace ] || bad "no out.pftrace" || return
	_cmp=$(python3 tests/tools/pftrace.py compare out.pftrace trace.json.gz 2>&1) ||
		bad "pftrace.py compare out.pftrace trace.json.gz: $(echo "$_cmp" | tail -1)" || return
	echo "$_cmp" | grep -q '"slices": 15,' ||
		bad "pftrace.py found not 15 slices (5 steps, 5 + 5 ranges): $_cmp"
}

c_otf2() {
	status0 && prints "tprof-analyze: OTF2 archive written to trace-otf2/traces.otf2" || return
	otf2-print trace-otf2/traces.otf2 >"$tmp/otf2-print" 2>&1 ||
		bad "otf2-print trace-otf2/traces.otf2 failed: $(tail -1 "$tmp/otf2-print")" || return
	_n=$(grep -c '^ENTER .*Region: "compute"' "$tmp/otf2-print")
	[ "$_n" -eq 5 ] || bad "otf2-print shows $_n ENTER events of region compute, not 5"
}

c_sqlite() {
	status0 && prints "tprof-analyze: SQLite database written to prof.db" || return
	_n=$(sqlite3 prof.db "select count(*) from named_slices where name = 'compute'" 2>&1)
	[ "$_n" = 5 ] || bad "sqlite3 prof.db: $_n slices named compute, not 5" || return
	_n=$(sqlite3 prof.db 'select count(*) from steps' 2>&1)
	[ "$_n" = 5 ] || bad "sqlite3 prof.db: $_n steps, not 5"
}

# The report opened in headless Chromium (tests/tools/browser.py): nothing asked for but the
# page, no error, every step drawn.
c_html() {
	status0 && prints "tprof-analyze: HTML report written to out.html" || return
	[ -s out.html ] || bad "no out.html" || return
	_got=$(python3 -c '
import sys
sys.path.insert(0, "tests/tools")
import browser
with browser.Page.open("out.html") as p:
    steps = p.eval("document.querySelectorAll(\"#steps-chart rect\").length")
    print(len(p.requests), len(p.errors), p.eval("document.body.dataset.drawn"), steps, p.errors)
' 2>&1) || bad "out.html in headless Chromium: $(echo "$_got" | tail -1)" || return
	case $_got in
	"1 0 yes 5 []") ;;
	*) bad "out.html in headless Chromium (requests, errors, drawn, steps): $_got" ;;
	esac
}

c_make_try() {
	status0 && mentions "make try: built; now run $clone/scripts/try.sh RUNTIME"
}

# try RUNTIME PYTHON HEADING...: try.sh RUNTIME ran its example (not status 77, something
# missing), printed the summary of try-RUNTIME with each HEADING a line, and wrote
# try-RUNTIME.json.gz, whose events satisfy PYTHON (see chrome).
try() {
	_r=$1 _py=$2
	shift 2
	[ "$rc" -ne 77 ] || bad "it could not run: $(grep "^try $_r: cannot run" "$log")" || return
	status0 && prints "==== try $_r ====" "try $_r: open try-$_r.json.gz at https://ui.perfetto.dev (Open trace file)" &&
		the_summary "try-$_r" "$@" && chrome "try-$_r.json.gz" "$_py"
}
c_try_hip() {
	try hip 'cats[("X", "kernel")] > 0 and cats[("s", "launch")] == cats[("f", "launch")] > 0' \
		Kernels "HIP API" "Copies and memsets"
}
c_try_mpi() {
	try mpi 'cats[("X", "mpi")] > 0 and cats[("s", "mpi")] == cats[("f", "mpi")] > 0' \
		MPI "MPI messages" && mentions "processes:   4"
}
c_try_nccl() {
	try nccl 'cats[("X", "collective")] > 0 and cats[("X", "nccl")] > 0' "NCCL API" &&
		mentions "NCCL collectives: " "busbw"
}
c_try_neuron() {
	try neuron 'cats[("X", "neuroncore")] > 0 and cats[("X", "nrt")] > 0' \
		"NRT API" "NRT tensor traffic" && mentions "NRT models: " "NeuronCores: busy share"
}
c_try_torch() {
	try torch 'cats[("X", "import")] > 0 and cats[("X", "step")] > 0' Steps &&
		mentions "Framework ops"
}
c_try_system() {
	try system 'cats[("i", "sample")] > 0 and cats[("X", "state")] > 0' "CPU utilisation per core" &&
		mentions "CPU samples by function" "Off-CPU time by thread"
}
c_try_all() {
	status0 && prints "try all: ran: hip mpi nccl neuron torch system; could not run (see above): none; failed: none"
}

# ---------------------------------------------------------------- the replay
cd "$clone" || exit 1
first_summary=""
n=0 passed=0 failed=0 skipped=0
: >"$tmp/report"
while IFS= read -r cmd <&3; do
	n=$((n + 1))
	fn=$(check_of "$cmd")
	why=""
	printf '\n$ %s\n' "$cmd"
	case $fn in
	skip_*)
		$fn
		echo "  SKIP: $why"
		echo "SKIP  $cmd  ($why)" >>"$tmp/report"
		skipped=$((skipped + 1))
		continue
		;;
	esac
	case $cmd in
	"./scripts/try.sh all")
		echo "  (run, though it repeats the six above: it takes seconds, and its last line is checked)"
		;;
	esac
	log=$tmp/$n.log
	s=$(now)
	# The output goes to the log line by line, the time of the first summary noted.
	{
		sh -c "$cmd" </dev/null 2>&1
		echo $? >"$tmp/rc"
	} | while IFS= read -r l || [ -n "$l" ]; do
		printf '%s\n' "$l"
		case $l in "tprof summary of "*) [ -e "$tmp/first" ] || now >"$tmp/first" ;; esac
	done >"$log"
	rc=$(cat "$tmp/rc")
	took=$(secs "$s" "$(now)")
	if [ -z "$first_summary" ] && [ -e "$tmp/first" ]; then
		first_summary=$(secs "$t0" "$(cat "$tmp/first")")
	fi
	if $fn; then
		echo "  PASS ($took s)"
		echo "PASS  $cmd  ($took s)" >>"$tmp/report"
		passed=$((passed + 1))
	else
		echo "  FAIL ($took s): $why; the end of its output:"
		tail -n 25 "$log" | sed 's/^/  | /'
		echo "FAIL  $cmd  ($why)" >>"$tmp/report"
		failed=$((failed + 1))
	fi
done 3<"$tmp/commands"

echo
echo "replay-readme: the README's commands, run in a fresh clone:"
cat "$tmp/report"
echo "replay-readme: from the clone to the first summary (quickstart's):" \
	"${first_summary:-never} s; the whole replay: $(secs "$t0" "$(now)") s"
if [ "$failed" -gt 0 ] || [ "$passed" -eq 0 ]; then
	echo "replay-readme: FAILED: $failed of $n README commands failed ($passed passed, $skipped skipped)"
	exit 1
fi
echo "replay-readme: all $passed README commands run passed their checks ($skipped skipped, named above)"
