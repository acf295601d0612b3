#!/bin/sh
# A PyTorch training loop (apps/python-torch.py: tprof.torch.profile around 6 steps, run by
# Debian's python3 with python3-torch) under tprof-inspect, and tprof-analyze on its profile
# directory with no option: PyTorch's trace, found there, is merged.  Every ProfilerStep#N
# must lie within 1 ms of tprof's step N (plus the time the program took to begin the step, or
# the median step's, which a busy machine stretches), on a framework track of the program's
# own process
# right under the loop's thread, and PyTorch's ops of that thread inside their step (but for
# those record_function makes for the step marker itself, just before the step).
. "$(dirname "$0")/lib.sh"
need_torch
plan 8

APP="$top_srcdir/tests/apps/python-torch.py"
export PYTHONDONTWRITEBYTECODE=1
"$INSPECT" -o "$T/out" -- "$SYS_PY" "$APP" "$T/facts.json" >"$T/run.out" 2>"$T/run.err"
rc=$?
ok $rc "the training loop runs under tprof-inspect"
[ $rc -eq 0 ] || diag "$(tail -n 5 "$T/run.err")"
"$ANALYZE" "$T/out" -v -f chrome -o "$T/merged.json" 2>"$T/an.err"
ok $? "tprof-analyze DIR merges PyTorch's trace with no option"
grep -Eq "imported $T/out/.*\.pt\.trace\.json: [0-9]+ events in [0-9]+ process\(es\); placed by its steps" \
	"$T/an.err"
ok $? "-v: the file found in the directory, placed by its steps"
grep -Eq "7 steps matched; .* residual [0-9.]+ us RMS" "$T/an.err"
ok $? "-v: steps 0 to 6 matched, with the residual"
grep -q "its process [0-9]* is python3" "$T/an.err"
ok $? "-v: the file's process is the recorded python3"

"$PY" -B "$CHECKS" steps-placed "$T/merged.json" "$T/facts.json" 2>"$T/check.err"
ok $? "every ProfilerStep#N within 1 ms (and the slack) of tprof step N, on the loop thread's framework track of the python3 process, aten:: ops inside their step"
[ -s "$T/check.err" ] && diag "$(cat "$T/check.err")"
"$ANALYZE" "$T/out" --summary >"$T/sum.txt" 2>/dev/null
ok $? "--summary of the merged profile"
grep -q "^Framework ops" "$T/sum.txt" && grep -Eq "aten::(mm|linear|addmm|mse_loss)" "$T/sum.txt"
ok $? "the summary's Framework ops table holds PyTorch's ops"
finish
