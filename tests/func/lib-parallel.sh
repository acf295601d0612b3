# lib-parallel.sh — sourced by the tests of `tprof-analyze --parallel` after lib.sh: the
# profiles they compare the serial and the parallel analyzer on, written into $T.

# mix_job: a job of six processes without MPI (HIP kernels and copies, steps, marks,
# counters, ranges across threads) recorded in $T/mix.
mix_job() {
	cat >"$T/job.sh" <<EOF2
"$APPS/hip-multi" 3 &
"$APPS/marks" &
"$APPS/steps" &
"$APPS/roctx-ranges" &
"$APPS/threads" &
"$APPS/hip-gaps" &
wait
EOF2
	"$INSPECT" -o "$T/mix" -- sh "$T/job.sh" >/dev/null 2>&1
}

# generated_jobs NSYNTH: a generated MPI job of 12 ranks on two hosts ($T/gen), a generated
# NCCL job of 4 ranks ($T/nccl) and apps/nccl-synth's job ($T/NSYNTH).
generated_jobs() {
	"$top_builddir/tests/tools/gen-profile" -r 12 -s 8 -k "$T/gen" >/dev/null &&
		"$top_builddir/tests/tools/gen-profile" -r 4 -s 3 -n "$T/nccl" >/dev/null &&
		"$APPS/nccl-synth" "$T/$1" >/dev/null
}

# mpi_jobs APP...: each apps/APP recorded on 4 ranks of Open MPI in $T/APP; fails at the first
# that fails, saying its exit status and the end of what it printed.
mpi_jobs() {
	for _mj_app in "$@"; do
		# shellcheck disable=SC2086
		"$INSPECT" -o "$T/$_mj_app" -- $MPIRUN $MPIRUN_FLAGS -np 4 "$APPS/$_mj_app" \
			>"$T/$_mj_app.run" 2>&1 && continue
		diag "$_mj_app on 4 ranks under tprof-inspect: exit status $?; its last lines:"
		tail -n 20 "$T/$_mj_app.run" | sed 's/^/#   /'
		return 1
	done
}
