#!/bin/sh
# tprof-analyze --format perfetto end to end.  Each profile is written both as a Chrome trace
# and as a Perfetto trace, with the same options; tools/pftrace.py decodes the Perfetto one
# with protoc against Perfetto's schema (tests/perfetto), every compressed bundle too, reads it
# as trace processor does (sequences, interning, defaults, clocks), checks it (iids resolve on
# their sequence, every event's track described, every flow id at exactly both ends, slices
# nest on each track, arrows end inside slices) and finds in it exactly what the Chrome trace
# holds: every slice, instant, counter sample, cross-thread range and arrow, on the same track,
# at the same nanoseconds, with the same name, category and arguments, and the same processes
# and tracks, named and ordered alike.  Profiles: synthetic MPI (4 ranks, messages,
# collectives, a host ahead), NCCL (4 ranks, device spans) and NRT (NeuronCores on two hosts)
# jobs and device spans put in order, in every --group-by layout that applies; real programs:
# steps with marks and counters (and a --steps window), nested ranges with marks on 4 threads
# (written in time order on each sequence: no full timestamps), roctx ranges across threads
# and ranges by id that overlap, the stand-in Neuron runtime driving two cores, HIP launches on the
# stand-in (with hipcc), an MPI job on 3 ranks and NCCL collectives of 4 ranks on the stand-in
# NCCL (with Open MPI).  Then the command line: the default file name, standard output, the
# errors.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
{ [ -n "${PROTOC:-}" ] && [ "$PROTOC" != no ]; } ||
	skip_all "no protoc (configure found none; on Debian: apt-get install protobuf-compiler)"
export PROTOC
PFTRACE="$top_srcdir/tests/tools/pftrace.py"
plan 35

# both TAG DIR [OPTIONS...]: DIR as TAG.json and TAG.pftrace with OPTIONS; the two must agree.
both() {
	_t=$1 _d=$2
	shift 2
	if ! "$ANALYZE" "$_d" -f chrome -o "$T/$_t.json" "$@" 2>"$T/$_t.err" ||
		! "$ANALYZE" "$_d" -f perfetto -o "$T/$_t.pftrace" "$@" 2>>"$T/$_t.err"; then
		ok 1 "$_t: tprof-analyze $* writes both traces"
		diag "$(tail -n 3 "$T/$_t.err")"
		return
	fi
	"$PY" "$PFTRACE" compare "$T/$_t.pftrace" "$T/$_t.json" >"$T/$_t.sum" 2>"$T/$_t.cmp"
	ok $? "$_t${*:+ ($*)}: the Perfetto trace decodes, checks, shows what the Chrome one does"
	diag "$(cat "$T/$_t.sum" "$T/$_t.cmp" | head -n 8)"
}

# ---- synthetic jobs (written without the recorder: never skipped) --------------------------
if "$APPS/mpi-synth" "$T/mpi" >/dev/null; then
	both mpi "$T/mpi"
	both mpi-domain "$T/mpi" --group-by domain
	both mpi-instance "$T/mpi" --group-by instance
else
	for _i in 1 2 3; do ok 1 "apps/mpi-synth writes its job"; done
fi
# the arrows themselves: one per message, plus the collectives'
pycheck "mpi: every message is an arrow" every-message-arrow "$T/mpi.sum"

if "$APPS/nccl-synth" "$T/nccl" >/dev/null; then
	both nccl "$T/nccl"
	both nccl-domain "$T/nccl" --group-by domain
else
	for _i in 1 2; do ok 1 "apps/nccl-synth writes its job"; done
fi

if "$APPS/nrt-synth" "$T/nrt" >/dev/null; then
	both nrt "$T/nrt"
	both nrt-cores "$T/nrt" --group-by neuroncore
	both nrt-instance "$T/nrt" --group-by instance
	both nrt-domain "$T/nrt" --group-by domain
else
	for _i in 1 2 3 4; do ok 1 "apps/nrt-synth writes its job"; done
fi

if "$APPS/dev-synth" "$T/dev" >/dev/null 2>&1; then
	both dev "$T/dev"
else
	ok 1 "apps/dev-synth writes its profile"
fi

# ---- real programs -----------------------------------------------------------------------
record_env "$T/steps" "$APPS/steps" 2 open >/dev/null 2>&1
ok $? "steps runs under the recorder"
both steps "$T/steps"
both steps-window "$T/steps" --steps 2:4
pycheck "steps: 10 counter samples, 20 marks, 10 steps and 13 ranges" steps-counts \
	"$T/steps.sum"

# Ranges nested two deep with a mark inside, on 4 threads: the scene draws a range when it
# closes, after what it encloses; the writer holds a thread's packets back while ranges are
# open there and writes them in time order once the outermost closes (its names in packets of
# their own before them), so that every packet's time is a delta from the one before on its
# sequence, never a full timestamp.
record_env "$T/nested" "$APPS/threads" 4 200 >/dev/null 2>&1
ok $? "threads runs under the recorder"
both nested "$T/nested"
pycheck "nested: 1600 ranges, 800 marks; on each sequence packets in time order, no full timestamps" \
	nested-order "$T/nested.pftrace" "$T/nested.sum"

if [ -x "$APPS/roctx-ranges" ] && [ -x "$APPS/roctx-async" ] &&
	[ -e "$STANDIN_LIBDIR/libroctx64.so.4" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		record_env "$T/roctx" "$APPS/roctx-ranges" >/dev/null 2>&1 &&
		LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		record_env "$T/async" "$APPS/roctx-async" >/dev/null 2>&1
	ok $? "roctx-ranges and roctx-async run under the recorder"
	both roctx "$T/roctx"
	# ranges by id that overlap without nesting: each on a lane where it fits
	both async "$T/async"
else
	for _i in 1 2 3; do skip "roctx-ranges, roctx-async or the stand-in roctx was not built"; done
fi

if [ -e "$STANDIN_LIBDIR/libnrt.so.1" ] && [ -x "$APPS/nrt-threads" ] && [ -x "$APPS/mkneff" ]; then
	neff "$T/a.neff" mlp-small exec_us=2000 in=x:4096 out=z:4096 &&
		neff "$T/b.neff" conv-big exec_us=3000 in=img:65536 out=map:32768 &&
		LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
			"$INSPECT" -o "$T/nrtreal" -- "$APPS/nrt-threads" -n 3 -e "$T/a.neff" \
			"$T/b.neff" >/dev/null 2>&1
	ok $? "nrt-threads runs on the stand-in Neuron runtime under the profiler"
	both nrt-threads "$T/nrtreal"
else
	skip "the stand-in libnrt.so.1 or apps/nrt-threads was not built"
	skip "the stand-in libnrt.so.1 or apps/nrt-threads was not built"
fi

if [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ] && [ -x "$APPS/hip-multi" ]; then
	STANDIN_HIP_KERNEL_US="scale_a:200,shift_b:300" \
		LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		"$INSPECT" -o "$T/hip" -- "$APPS/hip-multi" 3 >/dev/null 2>&1
	ok $? "hip-multi launches kernels on the stand-in HIP runtime under the profiler"
	both hip "$T/hip"
else
	skip "the stand-in HIP runtime or apps/hip-multi was not built (configure found no hipcc)"
	skip "the stand-in HIP runtime or apps/hip-multi was not built (configure found no hipcc)"
fi

if [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ] && [ -x "$APPS/mpi-pattern" ]; then
	OMPI_MCA_mpi_yield_when_idle=1 "$INSPECT" -o "$T/mpireal" -- "$MPIRUN" --allow-run-as-root \
		--oversubscribe -np 3 "$APPS/mpi-pattern" >/dev/null 2>&1
	ok $? "mpi-pattern runs on 3 ranks under the profiler"
	both mpi-real "$T/mpireal"
else
	skip "no mpirun, or apps/mpi-pattern was not built"
	skip "no mpirun, or apps/mpi-pattern was not built"
fi

if [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ] && [ -x "$APPS/nccl-ranks" ] &&
	[ -e "$STANDIN_LIBDIR/libnccl.so.2" ] && [ -e "$STANDIN_LIBDIR/libamdhip64.so.5" ]; then
	LD_LIBRARY_PATH="$STANDIN_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		OMPI_MCA_mpi_yield_when_idle=1 "$INSPECT" -o "$T/ncclreal" -- "$MPIRUN" \
		--allow-run-as-root --oversubscribe -np 4 "$APPS/nccl-ranks" >/dev/null 2>&1
	ok $? "nccl-ranks runs on 4 ranks through the stand-in NCCL under the profiler"
	both nccl-real "$T/ncclreal"
else
	skip "no mpirun, or the stand-in NCCL or apps/nccl-ranks was not built"
	skip "no mpirun, or the stand-in NCCL or apps/nccl-ranks was not built"
fi

# ---- the command line --------------------------------------------------------------------
cp -r "$T/steps" "$T/named"
(cd "$T" && "$ANALYZE" "$T/named/" -f perfetto) 2>"$T/named.err"
check "without -o the trace is NAME.pftrace in the current directory, and said so" \
	grep -q "Perfetto trace written to named.pftrace" "$T/named.err"
"$ANALYZE" "$T/steps" -f perfetto -o - >"$T/stdout.pftrace" 2>/dev/null
check "-o - writes the same trace to standard output" cmp -s "$T/stdout.pftrace" "$T/steps.pftrace"
touch "$T/plainfile"
"$ANALYZE" "$T/steps" -f perfetto -o "$T/plainfile/dir/t.pftrace" 2>"$T/nodir.err"
rc=$?
[ $rc -eq 2 ] && grep -q "cannot write $T/plainfile/dir/t.pftrace" "$T/nodir.err"
ok $? "a file that cannot be made: refused before reading (exit 2), saying which (exit $rc)"
# --split steps:N: each Perfetto part shows what the Chrome part of the same steps does.
mkdir -p "$T/sp"
if "$ANALYZE" "$T/steps" -f perfetto --split steps:2 -o "$T/sp/s.pftrace" 2>"$T/split.err" &&
	"$ANALYZE" "$T/steps" -f chrome --split steps:2 -o "$T/sp/s.json" 2>>"$T/split.err"; then
	_n=0 _bad=0
	for _p in "$T"/sp/s.part-*.pftrace; do
		_n=$((_n + 1))
		"$PY" "$PFTRACE" compare "$_p" "${_p%.pftrace}.json" >/dev/null 2>"$T/sp.cmp" ||
			{ _bad=$((_bad + 1)); diag "$_p: $(head -n 3 "$T/sp.cmp")"; }
	done
	[ "$_n" -ge 2 ] && [ "$_bad" -eq 0 ] && [ -s "$T/sp/s.index.json" ] &&
		[ "$(ls "$T"/sp/s.part-*.json | wc -l)" -eq "$_n" ]
	ok $? "--split steps:2: $_n Perfetto parts, each as its Chrome part, and an index"
else
	ok 1 "--split steps:2 writes Perfetto and Chrome parts"
	diag "$(head -n 3 "$T/split.err")"
fi
"$ANALYZE" "$T/steps" -f perfetto --split size:1 -o "$T/split.pftrace" 2>"$T/split.err"
rc=$?
[ $rc -eq 2 ] && grep -q "split size:MB is for --format chrome" "$T/split.err" &&
	[ ! -e "$T/split.pftrace" ]
ok $? "--split size:MB (a JSON size) with --format perfetto is a usage error (exit $rc)"
"$ANALYZE" "$T/steps" -f perfeto 2>"$T/bad.err"
rc=$?
[ $rc -eq 2 ] && grep -q "known: chrome, perfetto, otf2" "$T/bad.err"
ok $? "an unknown format is a usage error that lists perfetto (exit $rc)"
finish
