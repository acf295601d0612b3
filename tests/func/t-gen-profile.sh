#!/bin/sh
# tools/gen-profile: synthetic profiles of MPI jobs written in tprof's format without running
# them (for analyzing jobs of many ranks): the analyzer reads what it wrote, every message
# matched, every step, range and collective instance found, NCCL's too with -n, every kernel
# with -k (tools/checks/gen-profile.py); bad arguments are refused.
. "$(dirname "$0")/lib.sh"
GEN="$top_builddir/tests/tools/gen-profile"
[ -x "$GEN" ] || skip_all "tools/gen-profile was not built"
plan 10

"$GEN" -r 4 -s 50 "$T/small" >"$T/small.truth"
ok $? "4 ranks, 50 steps written ($(cat "$T/small.truth"))"
"$ANALYZE" "$T/small" --summary=json >"$T/small.json" 2>"$T/small.err"
ok $? "tprof-analyze reads them"
pycheck_in gen-profile "4 ranks: every message, step, range and collective found" \
	summary "$T/small.truth" "$T/small.json"
"$GEN" -r 150 -s 10 -b 100 "$T/odd" >"$T/odd.truth" &&
	"$ANALYZE" "$T/odd" --summary=json >"$T/odd.json" 2>"$T/odd.err"
ok $? "150 ranks on 19 hosts (WORLD described in 3 records), 100-byte messages: written and read"
pycheck_in gen-profile "150 ranks: every message, step, range and collective found" \
	summary "$T/odd.truth" "$T/odd.json"
"$GEN" -r 12 -s 30 -n -k "$T/nccl" >"$T/nccl.truth" &&
	"$ANALYZE" "$T/nccl" --summary=json >"$T/nccl.json" 2>"$T/nccl.err"
ok $? "12 ranks with kernels, NCCL AllReduces and their device spans: written and read"
pycheck_in gen-profile "NCCL and kernels: every instance and kernel found, each part timed" \
	summary "$T/nccl.truth" "$T/nccl.json"
for bad in "-r 1 -s 5" "-r 4 -s 0" "-r x -s 5"; do
	# shellcheck disable=SC2086
	"$GEN" $bad "$T/bad" >/dev/null 2>"$T/bad.err"
	check "gen-profile $bad is refused (exit 2)" test $? -eq 2
done
finish
