#!/bin/sh
# The tprof-inspect command line: help and version, usage errors (exit 2, naming what is
# wrong), a command that is not there (127), the command's status passed through (also
# death by a signal, 128+N), signals forwarded to the command, and what it says at the end.
. "$(dirname "$0")/lib.sh"
plan 18

"$INSPECT" --help >"$T/help" 2>"$T/help.err"
rc=$?
[ "$rc" -eq 0 ] && [ ! -s "$T/help.err" ] && grep -q '^Usage: tprof-inspect ' "$T/help"
ok $? "--help: exit 0 (got $rc), usage on stdout, nothing on stderr"
missing=
for opt in -o, --output -n, --max-events --buffer-kb --group-readable -v, --verbose -h, --help \
	-V, --version; do
	grep -q -e "^ *$opt\( \|,\|$\)" -e "^ *-[a-zA-Z], $opt\( \|$\)" "$T/help" || missing="$missing $opt"
done
[ -z "$missing" ]
ok $? "--help describes every option (missing:${missing:- none})"

"$INSPECT" --version >"$T/ver" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -qx 'tprof-inspect (tprof) [0-9][0-9.]*' "$T/ver"
ok $? "--version: exit 0 (got $rc), one line with the version"

# usage errors: exit 2, the message names the problem, the command does not run.
usage_error() {
	_what=$1
	shift
	"$INSPECT" "$@" >"$T/ue.out" 2>"$T/ue.err"
	_rc=$?
	[ "$_rc" -eq 2 ] && grep -q -e "^tprof-inspect: .*$_what" "$T/ue.err" && [ ! -s "$T/ue.out" ] && [ ! -e "$T/ran" ]
	ok $? "tprof-inspect $*: exit 2 (got $_rc), the message names $_what"
	[ "$_rc" -eq 2 ] || diag "stderr: $(cat "$T/ue.err")"
}
usage_error "'--bogus'" --bogus -- touch "$T/ran"
usage_error "'-x'" -x touch "$T/ran"
usage_error "no command" -o "$T/out"
usage_error "--buffer-kb" --buffer-kb 17 -- touch "$T/ran"
usage_error "--max-events" --max-events=-1 -- touch "$T/ran"
usage_error "-o" -o

"$INSPECT" -o "$T/nf" -- tprof-no-such-command-anywhere >"$T/nf.out" 2>"$T/nf.err"
rc=$?
[ "$rc" -eq 127 ] && grep -q "tprof-no-such-command-anywhere" "$T/nf.err"
ok $? "a command that is not found: exit 127 (got $rc), named in the message"

"$INSPECT" -o "$T/st" -- sh -c 'exit 3' >/dev/null 2>&1
rc=$?
ok $((rc != 3)) "the command's exit status is passed through (3, got $rc)"
"$INSPECT" -o "$T/st" -- sh -c 'kill -TERM $$' >/dev/null 2>&1
rc=$?
ok $((rc != 143)) "a command killed by SIGTERM: exit 143 (got $rc)"
"$INSPECT" -o "$T/st" -- sh -c 'kill -KILL $$' >/dev/null 2>&1
rc=$?
ok $((rc != 137)) "a command killed by SIGKILL: exit 137 (got $rc)"

# SIGTERM sent to tprof-inspect reaches the command, which handles it and exits 5.
"$INSPECT" -o "$T/term" -- "$APPS/exits" trap 1000 "$T/ready" >"$T/term.out" 2>"$T/term.err" &
pid=$!
if wait_file "$T/ready" 20; then
	kill -TERM "$pid"
else
	diag "the command never got ready"
	kill -KILL "$pid"
fi
wait "$pid"
rc=$?
[ "$rc" -eq 5 ] && [ -e "$T/ready.term" ]
ok $? "SIGTERM to tprof-inspect is passed on: the command's handler ran and its status 5 came back (got $rc)"
"$ANALYZE" "$T/term" --summary >"$T/term.summary" 2>/dev/null &&
	grep -q 'events: 4,000$' "$T/term.summary" && ! grep -q 'final flush' "$T/term.summary"
ok $? "SIGTERM: the command's 4000 events were recorded and flushed at its exit"

# What tprof-inspect says: a footer on stderr; stdout is the command's alone.
"$INSPECT" -o "$T/foot" -- "$APPS/threads" 2 10 >"$T/foot.out" 2>"$T/foot.err"
rc=$?
[ "$rc" -eq 0 ] && [ "$(cat "$T/foot.out")" = "threads=2 iterations=10" ]
ok $? "stdout holds the command's output and nothing else"
grep -qx "tprof-inspect: profile written to $T/foot (1 process)" "$T/foot.err" &&
	[ "$(grep -vc '^tprof-inspect: ' "$T/foot.err")" -eq 0 ]
ok $? "stderr ends with 'profile written to DIR (1 process)', and holds nothing else"
grep -qx "tprof-inspect: profile written to $T/foot (1 process)" "$T/foot.err" || diag "$(cat "$T/foot.err")"
"$INSPECT" -o "$T/foot2" -- "$APPS/forkexec" fork 10 >/dev/null 2>"$T/foot2.err"
grep -qx "tprof-inspect: profile written to $T/foot2 (2 processes)" "$T/foot2.err"
ok $? "a command that forks: 'profile written to DIR (2 processes)'"
finish
