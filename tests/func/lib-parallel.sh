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

# system_job: a job of two hosts with system images, written by tools/mk-sysimage into
# $T/sys: on each host three recorded processes of two threads, a helper process that only the
# system image follows (it recorded nothing: the analyzer makes its process), a process that
# execs, CPU samples (kernel frames from KSYM records, user frames nothing resolves, a stack
# of each host's own, frames in a library that is gone, one naming a pid nothing describes), thread states, core busy shares, host memory, RSS and page
# faults; node2 with two system images that overlap (one draws the host's counters).
system_job() {
	for _sj_h in 1 2; do
		_sj_b=$((_sj_h * 1000))
		for _sj_p in 0 1 2; do
			_sj_pid=$((_sj_b + _sj_p * 10))
			cat <<EOF2
image recorded host=node$_sj_h pid=$_sj_pid ppid=1 exe=/usr/bin/app start=1ms end=$((500 + _sj_p * 50))ms
thread tid=$_sj_pid name=app
thread tid=$((_sj_pid + 1)) name=worker
range tid=$_sj_pid t0=2ms t1=$((400 + _sj_p * 30))ms name=main
range tid=$((_sj_pid + 1)) t0=$((10 + _sj_p))ms t1=300ms name=work
EOF2
		done
		cat <<EOF2
image system host=node$_sj_h pid=$((_sj_b + 900)) start=1ms end=700ms target=$_sj_b
ksym t=1ms addr=0xffffffff81000000 end=0xffffffff81000100 name=schedule
ksym t=1ms addr=0xffffffff81000100 end=0xffffffff81000200 name=do_syscall_64
task created t=3ms pid=$((_sj_b + 50)) tid=$((_sj_b + 50)) ppid=$_sj_b comm=sh exe=/bin/sh
task exec t=20ms pid=$((_sj_b + 50)) tid=$((_sj_b + 50)) gen=1 comm=helper exe=/usr/bin/helper
task created t=21ms pid=$((_sj_b + 50)) tid=$((_sj_b + 51)) comm=helper-io
EOF2
		for _sj_p in 0 1 2; do
			_sj_pid=$((_sj_b + _sj_p * 10))
			cat <<EOF2
task seen t=1ms pid=$_sj_pid tid=$_sj_pid ppid=1 comm=app exe=/usr/bin/app
task created t=4ms pid=$_sj_pid tid=$((_sj_pid + 1)) comm=worker
sched t=5ms pid=$_sj_pid tid=$_sj_pid cpu=$_sj_p state=running
sched t=$((40 + _sj_p))ms pid=$_sj_pid tid=$_sj_pid state=sleeping
sched t=$((90 + _sj_p))ms pid=$_sj_pid tid=$_sj_pid cpu=$_sj_p state=running
sched t=6ms pid=$_sj_pid tid=$((_sj_pid + 1)) cpu=3 state=running
sched t=$((60 + _sj_h))ms pid=$_sj_pid tid=$((_sj_pid + 1)) state=blocked
sched t=$((200 + _sj_p))ms pid=$_sj_pid tid=$((_sj_pid + 1)) state=exited
sample t=$((10 + _sj_p))ms pid=$_sj_pid tid=$_sj_pid cpu=$_sj_p k=0xffffffff81000010,0xffffffff81000200 u=0x401000
sample t=$((20 + _sj_p))ms pid=$_sj_pid tid=$((_sj_pid + 1)) cpu=3 u=0x401100,0x401200
sample t=$((100 + _sj_h))ms pid=$_sj_pid tid=$_sj_pid cpu=$_sj_p u=0x401000
maps t=1ms pid=$_sj_pid start=0x700000 end=0x701000 off=0 path=/nonexistent/libgone.so
sample t=$((130 + _sj_p))ms pid=$_sj_pid tid=$_sj_pid cpu=$_sj_p u=0x700010
sample t=$((120 + _sj_p * _sj_h))ms pid=$_sj_pid tid=$_sj_pid cpu=$_sj_p u=0x40${_sj_h}800,0x401000
sysctr t=100ms what=rss of=$_sj_pid value=$((_sj_h * 1000000 + _sj_p))
sysctr t=$((110 + _sj_p))ms what=faults of=$((_sj_pid + 1)) value=$((_sj_p + 3))
EOF2
		done
		cat <<EOF2
sample t=30ms pid=$((_sj_b + 50)) tid=$((_sj_b + 51)) cpu=2 u=0x500000
sched t=25ms pid=$((_sj_b + 50)) tid=$((_sj_b + 51)) cpu=2 state=running
sched t=35ms pid=$((_sj_b + 50)) tid=$((_sj_b + 51)) state=sleeping
sample t=50ms pid=999$_sj_h tid=999$_sj_h cpu=1 u=0x1234
sysctr t=100ms what=busy of=0 value=$((_sj_h * 250000))
sysctr t=200ms what=busy of=1 value=750000
sysctr t=100ms what=hostmem value=$((_sj_h * 2000000000))
sysctr t=200ms what=hostmem value=3000000000
drop t=300ms reason=5 count=$_sj_h
EOF2
	done
	cat <<EOF2
image system host=node2 pid=2950 start=50ms end=400ms target=2020 sampler=proc sample=sched,mem
task seen t=50ms pid=2020 tid=2020 ppid=1 comm=app exe=/usr/bin/app
sched t=300ms pid=2020 tid=2020 state=runnable
sysctr t=150ms what=hostmem value=2500000000
EOF2
}

# system_jobs: system_job's profile in $T/sys; a copy in $T/syssplit whose file of node2's pid
# 2010 is named for another host (so that its host's processes fall to two analysis processes
# of 3); apps/mpi-pattern recorded on 4 ranks of Open MPI with the system profile
# (tprof-inspect --sample all) in $T/sampled.
system_jobs() {
	system_job | "$top_builddir/tests/tools/mk-sysimage" "$T/sys" &&
		cp -r "$T/sys" "$T/syssplit" &&
		mv "$T/syssplit/node2.2010.000007da.tpf" "$T/syssplit/n2.2010.000007da.tpf" &&
		# shellcheck disable=SC2086
		"$INSPECT" -o "$T/sampled" --sample all -- $MPIRUN $MPIRUN_FLAGS -np 4 \
			"$APPS/mpi-pattern" >"$T/sampled.run" 2>&1
}
