#!/bin/sh
# fuzz.sh [SECONDS [TARGET...]] — builds tprof-analyze's libFuzzer targets (tests/fuzz/) with
# clang and -fsanitize=fuzzer,address,undefined in a build directory of their own
# ($FUZZ_BUILD, default build-fuzz/ at the top of the checkout; the normal build is left
# alone) and runs each for SECONDS (default $FUZZ_TIME, else 10), one after the other, from
# its seeds in tests/fuzz/corpus/TARGET; SECONDS 0 runs each seed and kept finding
# (tests/fuzz/corpus/TARGET/find-*) once, as a regression test.  What a run finds new goes to
# $FUZZ_BUILD/fuzz-corpus/TARGET; a crash, a leak, a timeout or too much memory stops the
# script, its input saved as $FUZZ_BUILD/fuzz-findings/TARGET-*.
#
# The bounds are the analyzer's (README: hostile input): inputs of up to MAX_LEN bytes
# (256 KiB), at most 64 MiB + 4 times that in any one allocation (-malloc_limit_mb), the
# process's RSS within that above what the fuzzer itself holds over the seeds, and 128 MiB
# more in a run that explores, where libFuzzer keeps every input it adds to the corpus in
# memory (-rss_limit_mb), and a fixed floor of time per input (-timeout: 10 s per 10 MB is 0.25 s
# for 256 KiB; sanitizers and a busy machine get a floor of 10 s).  ASAN_OPTIONS and
# UBSAN_OPTIONS, when set, replace the script's own (UBSAN_OPTIONS=halt_on_error=0 reports
# undefined behaviour without stopping).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-${FUZZ_TIME:-10}}
[ $# -gt 0 ] && shift
targets=${*:-tpf spool json render records live}
dir=${FUZZ_BUILD:-$top/build-fuzz}
cc=${FUZZ_CC:-clang}
MAX_LEN=262144
ALLOW_MB=$((64 + 4 * MAX_LEN / 1048576))
TIMEOUT=10

command -v "$cc" >/dev/null || { echo "fuzz: no $cc (on Debian: apt-get install clang)" >&2; exit 1; }
# Undefined behaviour stops a run (UBSAN_OPTIONS halt_on_error=1, below); it is compiled
# recoverable so that UBSAN_OPTIONS=halt_on_error=0 can list every site in one long run.
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined"
mkdir -p "$dir"
if [ ! -f "$dir/Makefile" ]; then
	[ -x "$top/configure" ] || (cd "$top" && autoreconf -fi)
	(cd "$dir" && "$top/configure" -q CC="$cc" CFLAGS="$flags" \
		LDFLAGS="-fsanitize=address,undefined")
fi
make -s -C "$dir/common" libtprof-common.la
make -s -C "$dir/analyze" libtprof-analyze.la
for t in $targets; do
	make -s -C "$dir/tests" "fuzz/fuzz-$t"
done

# Leaks are findings; the quarantine of freed memory is kept small, so that what the process
# holds is the analyzer's (and the fuzzer's) own.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=16:detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
mkdir -p "$dir/fuzz-corpus" "$dir/fuzz-findings"
status=0
for t in $targets; do
	bin="$dir/tests/fuzz/fuzz-$t"
	corpus="$dir/fuzz-corpus/$t"
	mkdir -p "$corpus"
	# The fuzzer's own memory: the peak of a run over the seeds alone.
	base=$("$bin" -runs=0 -close_fd_mask=3 -max_len=$MAX_LEN -detect_leaks=0 \
		-artifact_prefix="$dir/fuzz-findings/$t-seeds-" "$top/tests/fuzz/corpus/$t" 2>&1 |
		sed -n 's/.*rss: \([0-9]*\)Mb.*/\1/p' | tail -1)
	rss=$((${base:-300} + ALLOW_MB))
	[ "$secs" -eq 0 ] || rss=$((rss + 128))
	log="$dir/fuzz-$t.log"
	if [ "$secs" -eq 0 ]; then
		howlong="-runs=0" what="its corpus once"
	else
		howlong="-max_total_time=$secs" what="for ${secs}s"
	fi
	echo "fuzz: $t $what (inputs up to $MAX_LEN bytes, an allocation up to ${ALLOW_MB} MiB," \
		"RSS up to ${rss} MiB, ${TIMEOUT} s an input)"
	"$bin" "$howlong" -max_len=$MAX_LEN -malloc_limit_mb=$ALLOW_MB \
		-rss_limit_mb=$rss -timeout=$TIMEOUT -close_fd_mask=3 -print_final_stats=1 \
		-artifact_prefix="$dir/fuzz-findings/$t-" "$corpus" "$top/tests/fuzz/corpus/$t" \
		>"$log" 2>&1 && rc=0 || rc=$?
	# the inputs run, also when a finding stopped the run
	sed -n 's/^stat::number_of_executed_units: */  inputs run: /p' "$log"
	grep -o 'cov: [0-9]* ft: [0-9]* corp: [0-9/]*[A-Za-z]*' "$log" | tail -1 | sed 's/^/  /'
	if [ "$rc" -ne 0 ]; then
		status=1
		echo "fuzz: $t found a problem (status $rc; its log: $log):" >&2
		grep -E '^==[0-9]+==ERROR|runtime error|SUMMARY|Test unit written|^ +#[0-9]+ .* in ' "$log" |
			head -20 >&2
	fi
done
exit $status
