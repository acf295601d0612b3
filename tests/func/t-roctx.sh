#!/bin/sh
# roctx annotations are recorded like the tprof API: pushed ranges nest per thread, marks are
# instants, and a range started on one thread and stopped on another becomes one async
# range; the library's own return values (levels, ids) reach the program unchanged.
. "$(dirname "$0")/lib.sh"
[ -x "$APPS/roctx-ranges" ] || skip_all "roctx-ranges was not built"
LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
plan 5

"$INSPECT" -o "$T/out" -- "$APPS/roctx-ranges" >"$T/stdout" 2>"$T/stderr"
ok $? "the program runs under tprof-inspect"
check "roctx's own return values are unchanged" grep -qx 'levels=0,1 pops=1,0,neg id=1' "$T/stdout"
"$ANALYZE" "$T/out" --format chrome -o "$T/trace.json" 2>"$T/analyze.err"
ok $? "tprof-analyze writes a Chrome trace"
pycheck "outer contains inner on the main thread; 100 worker ranges and marks on the other" \
	nesting "$T/trace.json"
pycheck "the range crossing threads is one async range, begun before and ended after the \
worker's" crossing "$T/trace.json"
finish
