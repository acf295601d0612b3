#!/bin/sh
# --diff held to ground truth: apps/diag-causes "balanced" (4 MPI ranks over the stand-in HIP
# runtime, 10 steps of one kernel and an allreduce) recorded three times: A and C with the
# kernel at 20 ms, B at 30 ms.  A against B: the kernel comes first, 10 ms more in each of
# its 40 runs (within 10 %), beyond the noise; the launch call is within it; the compute part
# of the steps grows.  A against C: the kernel is within the noise.  Also the text, the data
# of one profile (--diff-data), a profile without steps (no noise to tell), and the refusals.
. "$(dirname "$0")/lib.sh"
[ -x "$APPS/diag-causes" ] ||
	skip_all "apps/diag-causes was not built (it needs mpicc, mpirun and the stand-in NCCL)"
need_mpi apps/diag-causes
[ -n "${STANDIN_LIBDIR:-}" ] && [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ] ||
	skip_all "no stand-in HIP runtime (configure found no usable HIP headers)"
LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export LD_LIBRARY_PATH
plan 12

rec() {
	STANDIN_HIP_KERNEL_US="step_kernel:$2,default:10" "$INSPECT" -o "$T/$1" -- \
		"$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/diag-causes" balanced >"$T/$1.out" 2>&1
}
rec a 20000 && rec b 30000 && rec c 20000
ok $? "three runs recorded: A and C with a 20 ms kernel, B with a 30 ms one"

"$ANALYZE" "$T/a" --diff "$T/b" --summary-format json >"$T/ab.json" 2>"$T/ab.err"
ok $? "--diff A B (JSON)"
[ -s "$T/ab.err" ] && diag "$(head -n 5 "$T/ab.err")"
pycheck "A to B: the kernel first of the device's work, 400 ms more (within 10%) beyond the noise; the launch call \
within the noise; the steps' compute more" slowed "$T/ab.json" step_kernel 400e6 \
	hipModuleLaunchKernel
"$ANALYZE" "$T/a" --diff "$T/c" --summary-format json >"$T/ac.json" 2>/dev/null &&
	pycheck "A to C (the same program): the kernel within the noise" unchanged "$T/ac.json" \
		step_kernel

"$ANALYZE" "$T/a" --diff "$T/b" --top 4 >"$T/ab.txt" 2>/dev/null &&
	grep -Eq "^more +\+[0-9.]+ ms +\+[0-9.]+% .* kernel +step_kernel$" "$T/ab.txt" &&
	grep -q "^The steps: their parts" "$T/ab.txt" && grep -q "more rows (--top 0 shows all)" "$T/ab.txt"
ok $? "text: the kernel's row, the steps' table, --top cuts"
[ $? -eq 0 ] || diag "$(head -n 12 "$T/ab.txt")"

"$ANALYZE" "$T/a" --diff-data >"$T/a.data" 2>/dev/null
ok $? "--diff-data A"
pycheck "its items' time in each of the 10 steps adds up to their totals" data "$T/a.data" 10

# Without steps: nothing to tell the noise by.
"$INSPECT" -o "$T/n1" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/mpi-pattern" >/dev/null 2>&1 &&
	"$INSPECT" -o "$T/n2" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/mpi-pattern" >/dev/null 2>&1 &&
	"$ANALYZE" "$T/n1" --diff "$T/n2" --summary-format json >"$T/nn.json" 2>/dev/null
ok $? "--diff of two profiles without steps"
pycheck "without steps no noise is told: more?, less? or same, no noise" no-steps "$T/nn.json"

"$ANALYZE" "$T/a" --diff "$T/b" -f chrome -o "$T/x.json" >/dev/null 2>"$T/err"
[ $? -eq 2 ] && grep -q "diff and --diff-data compare profiles" "$T/err"
ok $? "--diff with --format: a usage error"
"$ANALYZE" "$T/a" --diff "$T/nothing" >/dev/null 2>"$T/err"
[ $? -ne 0 ] && grep -q "$T/nothing" "$T/err"
ok $? "--diff of a directory without a profile fails, naming it"
"$ANALYZE" "$T/a" --diff "$T/b" --diff-data >/dev/null 2>"$T/err"
[ $? -eq 2 ]
ok $? "--diff with --diff-data: a usage error"
finish
