#!/bin/sh
# analyze-roundtrip.sh — tprof-analyze as the functional tests run it when TPROF_TEST_ROUNDTRIP
# is set (lib.sh): the real program ($ANALYZE_REAL), then every Chrome trace it wrote with -o
# read back to every format (lib-roundtrip.sh).  A trace that does not convert fails the run:
# status 99, and why on stderr.  `make check TPROF_TEST_ROUNDTRIP=1` so reads back the Chrome
# output of every profile the functional tests make.
"$ANALYZE_REAL" "$@"
rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
out="" format="" split=""
while [ $# -gt 0 ]; do
	case $1 in
	-o | --output) out=${2:-}; shift ;;
	--output=*) out=${1#--output=} ;;
	-o*) out=${1#-o} ;;
	-f | --format) format=${2:-}; shift ;;
	--format=*) format=${1#--format=} ;;
	-f*) format=${1#-f} ;;
	--split | --split=*) split=1 ;;
	esac
	shift
done
# -o alone: the name's ending says the format (chrome when it names none)
[ -z "$format" ] && case $out in
*.pftrace | *.perfetto-trace) format=perfetto ;;
*.db | *.sqlite | *.sqlite3) format=sqlite ;;
esac
{ [ -n "$out" ] && [ "$out" != - ] && [ -z "$split" ] && [ -f "$out" ] &&
	{ [ -z "$format" ] || [ "$format" = chrome ]; }; } || exit 0
: "${PY:=${PYTHON3:-python3}}"
. "$top_srcdir/tests/func/lib-roundtrip.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/tprof-roundtrip.XXXXXX") || exit 99
roundtrip "$out" "$work/rt"
rc=$?
rm -rf "$work"
[ "$rc" -eq 0 ] || exit 99
exit 0
