#!/bin/sh
# A HIP runtime without event functions (apps/minimal/libamdhip64.so.5, a minimal or mock
# runtime): every launch is recorded with its arguments, the launches are counted as left
# untimed, and each function the runtime lacks is looked up once, not at every launch (the
# recorder's debug log names each failed lookup).  A library loaded later with dlopen brings
# the event functions: the launches after it are timed, their missing functions found then.
. "$(dirname "$0")/lib.sh"
[ -x "$APPS/hip-minimal" ] || skip_all "apps/hip-minimal was not built"
EVENTS="$APPS/minimal/.libs/libhipevents.so"
[ -e "$EVENTS" ] || skip_all "apps/minimal/libhipevents.so was not built"
plan 11
N=2000 NC=2,000

"$APPS/hip-minimal" "$N" >"$T/plain.out" 2>&1
check "hip-minimal launches $N kernels without the recorder" grep -qx "launched=$N" "$T/plain.out"
TPROF_VERBOSE=2 record_env "$T/a" "$APPS/hip-minimal" "$N" >"$T/a.out" 2>"$T/a.err"
ok $? "and under the recorder"
check "its output is unchanged" cmp -s "$T/plain.out" "$T/a.out"

# misses FILE: "NAME COUNT" for each function the log says was missing, sorted by name.
misses() {
	sed -n 's/^tprof\[[0-9]*\]: debug: no definition of \([^ ]*\) after the profiler$/\1/p' \
		"$1" | sort | uniq -c | awk '{ printf "%s %s ", $2, $1 }'
}
# looked FILE EXPECTED: the misses of FILE are EXPECTED ("NAME COUNT NAME COUNT ").
looked() {
	[ "$(misses "$1")" = "$2" ] && return 0
	diag "missing functions looked up: $(misses "$1")"
	return 1
}
check "each missing function was looked up once for $N launches" \
	looked "$T/a.err" "hipEventCreateWithFlags 1 hipGetStreamDeviceId 1 "

"$ANALYZE" "$T/a" --format chrome -o "$T/a.json" 2>"$T/a.aerr" &&
	"$ANALYZE" "$T/a" --summary >"$T/a.sum" 2>>"$T/a.aerr"
ok $? "tprof-analyze reads the profile"
pycheck "every launch is recorded with its kernel, device, stream and sizes, none timed" \
	launches-untimed "$T/a.json" "$N"
check "the summary counts the $N launches as left untimed" \
	grep -q "dropped: *$NC  \[device operations left untimed: $NC\]" "$T/a.sum"

# The event functions come with a library loaded after the first launches.
TPROF_VERBOSE=2 record_env "$T/b" "$APPS/hip-minimal" "$N" "$EVENTS" >"$T/b.out" 2>"$T/b.err"
check "with the event functions loaded late, all launches succeed under the recorder" \
	grep -qx "launched=$((2 * N))" "$T/b.out"
check "the event functions were looked up once before the dlopen and found after it" \
	looked "$T/b.err" "hipEventCreateWithFlags 1 hipGetStreamDeviceId 1 "
"$ANALYZE" "$T/b" --format chrome -o "$T/b.json" 2>"$T/b.aerr" &&
	"$ANALYZE" "$T/b" --summary >"$T/b.sum" 2>>"$T/b.aerr"
pycheck "the launches after the dlopen have their device spans; the first ones are untimed" \
	late-launches-timed "$T/b.json" "$N"
check "and only the first $N are counted as untimed" \
	grep -q "dropped: *$NC  \[device operations left untimed: $NC\]" "$T/b.sum"
finish
