#!/bin/sh
# sample-cost.sh PRELOAD [RUNS] — the cost of TPROF_SAMPLE without tprof-inspect: the recorder's
# /proc sampler at 99 Hz in a CPU-bound program (cpuburn 2e9 2: two threads, no system
# calls).  RUNS rounds (default 5), each running cpuburn plain, with the recorder, and with
# the recorder and TPROF_SAMPLE=all, one after the other so that drift in a shared machine's
# speed falls on all three; prints the medians of cpuburn's ns= and the slowdowns, then the
# sampler thread's own CPU time while a program sleeps 10 s (its schedstat).
set -eu
lib=$1
runs=${2:-5}
burn=${CPUBURN:-./cpuburn}
W=$(mktemp -d "${TMPDIR:-/tmp}/tprof-sample-cost.XXXXXX")
trap 'rm -rf "$W"' EXIT
ns() { sed -n 's/^ns=//p'; }
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	"$burn" 2e9 2 | ns >>"$W/plain"
	TPROF_ENABLE=1 TPROF_OUTPUT_DIR="$W/rec$i" LD_PRELOAD="$lib" "$burn" 2e9 2 | ns >>"$W/rec"
	TPROF_ENABLE=1 TPROF_SAMPLE=all TPROF_OUTPUT_DIR="$W/smp$i" LD_PRELOAD="$lib" \
		"$burn" 2e9 2 | ns >>"$W/smp"
done
median() {
	sort -n "$1" | awk '{ v[NR] = $1 }
		END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
p=$(median "$W/plain")
r=$(median "$W/rec")
s=$(median "$W/smp")
awk -v p="$p" -v r="$r" -v s="$s" -v n="$runs" 'BEGIN {
	printf "cpuburn 2e9 2, medians of %d: plain %.1f ms, recorder %.1f ms, ", n, p / 1e6,
		r / 1e6
	printf "recorder + TPROF_SAMPLE=all %.1f ms\n", s / 1e6
	printf "slowdown with the sampler: %+.2f %% of plain, %+.2f %% of the recorder alone\n",
		100 * (s / p - 1), 100 * (s / r - 1)
}'
# The sampler thread's CPU time, following one sleeping thread for 9 s.
TPROF_ENABLE=1 TPROF_SAMPLE=all TPROF_OUTPUT_DIR="$W/sleep" LD_PRELOAD="$lib" sleep 10 &
pid=$!
sleep 9
for t in /proc/$pid/task/*; do
	[ "$(cat "$t/comm")" = tprof-sample ] &&
		awk '{ printf "the sampler thread: %.1f ms of CPU in 9 s (%.2f %% of a CPU), " \
			"%d wakeups\n", $1 / 1e6, $1 / 9e7, $3 }' "$t/schedstat"
done
wait "$pid"

