#!/bin/sh
# tprof-analyze --summary-format json: on profiles of the test programs (steps, marks and
# counters; a killed process read from its spool; a damaged trace; HIP on the stand-in and on
# the minimal runtime without events; MPI on 4 ranks; NCCL on 4 ranks and over CUDA; NRT with
# failures; the synthetic MPI, NCCL, NRT and device jobs), with and without --top and windows,
# every line of the text summary is what the JSON says it must be (tools/summary-compare.py:
# every figure within the text's printed precision, every name exact, no line more or less),
# the JSON has exactly the documented keys with their types, and its figures hold exactly what
# the text rounds.  --top cuts the JSON's rows as the text's; a window is in the header; the
# option's spellings agree and a bad format is a usage error that names the option.
. "$(dirname "$0")/lib.sh"
plan 43
CMP="$top_srcdir/tests/tools/summary-compare.py"
DOC="$top_srcdir/docs/summary-json.md"

# both NAME DIR [OPTION...]: the text and the JSON summary of DIR with the options, compared.
both() {
	_n=$1 _d=$2
	shift 2
	"$ANALYZE" "$_d" "$@" >"$T/$_n.txt" 2>"$T/$_n.err" &&
		"$ANALYZE" "$_d" "$@" --summary-format json >"$T/$_n.json" 2>>"$T/$_n.err" &&
		"$PY" "$CMP" "$T/$_n.txt" "$T/$_n.json" 2>>"$T/$_n.err"
	_rc=$?
	[ $_rc -eq 0 ] || diag "$(head -n 8 "$T/$_n.err")"
	return $_rc
}
# holds CHECK ARGS...: the check CHECK of $CHECKS holds of the JSON files (no result of its
# own).
holds() { "$PY" -B "$CHECKS" "$@"; }
# has_rows JSON TABLE...: each table (a dotted path: nrt.models) has rows.
has_rows() { holds has-rows "$@"; }

# ---- steps, marks, counters, ranges; windows and --top ---------------------------------------
"$INSPECT" -o "$T/steps" -- "$APPS/steps" 10 >/dev/null 2>"$T/steps.rec"
ok $? "steps runs under tprof-inspect"
both steps "$T/steps"
ok $? "steps: the JSON holds every figure of the text (ranges, steps, marks, counters)"
both steps-top "$T/steps" --top 2
ok $? "steps --top 2: the same"
both steps-win "$T/steps" --steps 3:5
ok $? "steps --steps 3:5: the same, with the window in the header"
both steps-win-top "$T/steps" --steps 3:5 --top 3
ok $? "steps --steps 3:5 --top 3: the same"
both steps-startend "$T/steps" --start 50000 --end 120000
ok $? "steps --start 50000 --end 120000: the same"

holds top-rows "$T/steps.json" "$T/steps-top.json"
ok $? "--top 2: the first two rows of each table, the others counted in rows_omitted"

holds steps-window "$T/steps-win.json" "$T/steps.json"
ok $? "--steps 3:5: header.window is the window, exactly the three steps' time; null without"

"$INSPECT" -o "$T/marks" -- "$APPS/marks" >/dev/null 2>&1
ok $? "marks runs under tprof-inspect"
both marks "$T/marks"
ok $? "marks (four threads): the JSON holds every figure of the text"

# ---- a process killed (read from its spool), a damaged trace ---------------------------------
"$INSPECT" -o "$T/kill" -- "$APPS/exits" kill 200 >/dev/null 2>&1
both kill "$T/kill" &&
	holds killed-from-spool "$T/kill.json"
ok $? "a killed process: the same, and its process is flagged read from its spool"

TPROF_BUFFER_KB=16 record_env "$T/dmg" "$APPS/threads" 4 1000 >/dev/null 2>&1
tpf=$(ls "$T/dmg"/*.tpf | head -n 1)
printf '\377\377\377\377\377\377\377\377' |
	dd of="$tpf" bs=1 seek=$(($(wc -c <"$tpf") / 2)) conv=notrunc 2>/dev/null
both dmg "$T/dmg" &&
	holds damaged-counted "$T/dmg.json"
ok $? "a damaged trace: the same, and the damaged chunks and records are counted"

# ---- HIP ---------------------------------------------------------------------------------------
record_env "$T/min" "$APPS/hip-minimal" 300 >/dev/null 2>&1
both min "$T/min" &&
	holds untimed-dropped "$T/min.json"
ok $? "HIP without event functions: the same, and the 300 untimed launches are dropped by reason"

if [ -e "${STANDIN_LIBDIR:-/nonexistent}/libamdhip64.so.5" ] && [ -x "$APPS/hip-multi" ]; then
	HIP_ENV="LD_LIBRARY_PATH=$STANDIN_LIBDIR"
	env "$HIP_ENV" TPROF_CALLSTACK=1 "$INSPECT" -o "$T/hip" -- "$APPS/hip-multi" 5 >/dev/null 2>&1
	ok $? "hip-multi runs on the stand-in HIP runtime with TPROF_CALLSTACK=1"
	both hip "$T/hip" &&
		has_rows "$T/hip.json" devices kernels kernels_by_caller copies hip_api
	ok $? "HIP: devices, idle gaps, kernels, launching functions, copies, the HIP API"
	both hip-top "$T/hip" --top 1
	ok $? "HIP --top 1: the same"
else
	skip "no stand-in HIP runtime or hip-multi (configure found no HIP headers or hipcc)"
	skip "no stand-in HIP runtime or hip-multi"
	skip "no stand-in HIP runtime or hip-multi"
fi

# ---- MPI, NCCL ---------------------------------------------------------------------------------
have_mpi() {
	[ -n "${MPICC:-}" ] && [ "$MPICC" != no ] && [ -n "${MPIRUN:-}" ] && [ "$MPIRUN" != no ] &&
		[ -x "$top_builddir/tests/$1" ]
}
OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_mpi_yield_when_idle
if have_mpi apps/mpi-pattern; then
	"$INSPECT" -o "$T/mpi" -- "$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/mpi-pattern" >/dev/null 2>&1
	ok $? "mpi-pattern runs on 4 ranks"
	both mpi "$T/mpi" &&
		has_rows "$T/mpi.json" mpi.calls mpi.collectives mpi.clock_alignment &&
		holds mpi-ranks "$T/mpi.json"
	ok $? "MPI: calls with bytes, the 4 ranks, messages, collectives, clock alignment"
	both mpi-top "$T/mpi" --top 3
	ok $? "MPI --top 3: the same"
else
	skip "no mpicc/mpirun or apps/mpi-pattern"
	skip "no mpicc/mpirun or apps/mpi-pattern"
	skip "no mpicc/mpirun or apps/mpi-pattern"
fi

if have_mpi apps/nccl-ranks && [ -e "${STANDIN_LIBDIR:-/nonexistent}/libnccl.so.2" ]; then
	env "LD_LIBRARY_PATH=$STANDIN_LIBDIR" "$INSPECT" -o "$T/nccl" -- \
		"$MPIRUN" $MPIRUN_FLAGS -np 4 "$APPS/nccl-ranks" >/dev/null 2>&1
	ok $? "nccl-ranks runs on 4 ranks on the stand-in NCCL"
	both nccl "$T/nccl" &&
		has_rows "$T/nccl.json" nccl.calls nccl.collectives nccl.p2p
	ok $? "NCCL: the API with bytes, collectives with bus bandwidth and wait, send/receive pairs"
	both nccl-top "$T/nccl" --top 2
	ok $? "NCCL --top 2: the same"
else
	skip "no mpirun, apps/nccl-ranks or stand-in NCCL"
	skip "no mpirun, apps/nccl-ranks or stand-in NCCL"
	skip "no mpirun, apps/nccl-ranks or stand-in NCCL"
fi

if [ -x "$APPS/nccl-cuda" ] && [ -e "${STANDIN_LIBDIR:-/nonexistent}/libnccl.so.2" ]; then
	env "LD_LIBRARY_PATH=$STANDIN_LIBDIR" "$INSPECT" -o "$T/cuda" -- "$APPS/nccl-cuda" 3 \
		>/dev/null 2>&1
	ok $? "nccl-cuda runs: 3 forked ranks on the stand-in NCCL over CUDA"
	both cuda "$T/cuda"
	ok $? "NCCL over CUDA: the same"
else
	skip "no apps/nccl-cuda or stand-in NCCL"
	skip "no apps/nccl-cuda or stand-in NCCL"
fi

# ---- NRT ---------------------------------------------------------------------------------------
if [ -e "${STANDIN_LIBDIR:-/nonexistent}/libnrt.so.1" ] && [ -x "$APPS/nrt-threads" ]; then
	"$APPS/mkneff" "$T/a.neff" mlp exec_us=2000 in=x:4096 out=z:4096 &&
		"$APPS/mkneff" "$T/b.neff" conv exec_us=3000 in=img:65536 out=map:32768 &&
		env "LD_LIBRARY_PATH=$STANDIN_LIBDIR" "$INSPECT" -o "$T/nrt" -- \
			"$APPS/nrt-threads" -n 3 -e "$T/a.neff" "$T/b.neff" >/dev/null 2>&1
	ok $? "nrt-threads runs on the stand-in libnrt.so.1, with failing calls"
	both nrt "$T/nrt" &&
		has_rows "$T/nrt.json" nrt.models nrt.neuroncores nrt.failures nrt_api
	ok $? "NRT: models, NeuronCores, failed calls, the NRT API"
else
	skip "no stand-in libnrt.so.1 or apps/nrt-threads"
	skip "no stand-in libnrt.so.1 or apps/nrt-threads"
fi

# ---- the synthetic jobs: what the programs above rarely show ------------------------------------
"$APPS/mpi-synth" "$T/mpisyn" >/dev/null
both mpisyn "$T/mpisyn" &&
	holds clock-applied "$T/mpisyn.json"
ok $? "synthetic MPI job on two hosts: the same, with a clock offset applied"
"$APPS/nccl-synth" "$T/ncclsyn" >/dev/null
both ncclsyn "$T/ncclsyn" &&
	holds nccl-incomplete "$T/ncclsyn.json"
ok $? "synthetic NCCL job: the same, with an incomplete instance and a group (type null)"
both ncclsyn-top "$T/ncclsyn" --top 1
ok $? "synthetic NCCL job --top 1: the same"
"$APPS/nrt-synth" "$T/nrtsyn" >/dev/null
both nrtsyn "$T/nrtsyn" &&
	has_rows "$T/nrtsyn.json" nrt.tensor_traffic &&
	holds five-neuroncores "$T/nrtsyn.json"
ok $? "synthetic NRT job: the same, with tensor traffic and five NeuronCores"
"$APPS/dev-synth" "$T/devsyn" >/dev/null
both devsyn "$T/devsyn" &&
	holds adjusted-spans "$T/devsyn.json"
ok $? "synthetic device job: the same, with the adjusted device spans in the header"

# ---- the system profile (tools/mk-sysimage): its tables, a made process, lost samples ----------
cat >"$T/sys.txt" <<'EOF'
image recorded host=node1 pid=100 exe=/usr/bin/app start=1ms end=900ms
thread tid=100 name=app
range tid=100 t0=2ms t1=800ms name=main
image system host=node1 pid=50 start=1ms end=1s
task seen t=1ms pid=100 tid=100 ppid=1 comm=app exe=/usr/bin/app
task created t=5ms pid=100 tid=101 comm=compute
task created t=6ms pid=200 tid=200 ppid=100 comm=helper exe=/usr/bin/helper
ksym t=1ms addr=0xffffffff81000000 end=0xffffffff81000100 name=schedule
maps t=1ms pid=100 start=0x400000 end=0x500000 off=0 path=/nonexistent/app
sample t=10ms pid=100 tid=101 cpu=0 u=0x401000,0x402000
sample t=11ms pid=100 tid=101 cpu=0 u=0x401000,0x402000
sample t=12ms pid=100 tid=100 cpu=1 k=0xffffffff81000010 u=0x403000
sample t=13ms pid=200 tid=200 cpu=1 u=0x9999
sample t=14ms pid=777 tid=777 cpu=1 u=0x9999
sched t=2ms pid=100 tid=100 state=sleeping
sched t=20ms pid=100 tid=100 cpu=1 state=running
sched t=30ms pid=100 tid=100 state=blocked
sched t=40ms pid=100 tid=100 cpu=1 state=exited
sysctr t=100ms what=busy of=0 value=250000
sysctr t=100ms what=busy of=1 value=1000000
sysctr t=100ms what=hostmem value=2000000000
sysctr t=100ms what=rss of=100 value=50000000
drop t=500ms reason=5 count=3
EOF
"$top_builddir/tests/tools/mk-sysimage" "$T/sys" <"$T/sys.txt" && both sys "$T/sys" &&
	holds system-counts "$T/sys.json"
ok $? "system profile: the CPU, off-CPU, core and memory tables, a made process and lost samples"
both systop "$T/sys" --top 1 --start 5000 --end 35000 &&
	holds system-top "$T/systop.json"
ok $? "system profile --top 1 in a window: the same"

# ---- the keys ----------------------------------------------------------------------------------
"$PY" "$CMP" --doc "$DOC"
ok $? "every key of the JSON summary is documented in docs/summary-json.md"
holds format-version "$T/steps.json"
ok $? "the document says what it is: format tprof-summary, version 1"

# ---- the option --------------------------------------------------------------------------------
"$ANALYZE" "$T/steps" --summary=json >"$T/eq.json" 2>/dev/null && cmp -s "$T/eq.json" "$T/steps.json"
ok $? "--summary=json is --summary-format json"
ok=0
for o in -s --summary --summary=text "--summary-format text" "-s --summary-format text"; do
	# shellcheck disable=SC2086
	"$ANALYZE" "$T/steps" $o >"$T/eq.txt" 2>/dev/null && cmp -s "$T/eq.txt" "$T/steps.txt" ||
		{ ok=1; diag "$o differs from the default"; }
done
ok $ok "-s, --summary, --summary=text and --summary-format text are the default text"
"$ANALYZE" "$T/steps" -f chrome -o "$T/c.json" --summary-format json >"$T/both.json" 2>/dev/null &&
	cmp -s "$T/both.json" "$T/steps.json" && holds chrome-loads "$T/c.json"
ok $? "--summary-format json beside --format chrome: the JSON summary on stdout, the trace in its file"
"$ANALYZE" "$T/steps" --summary-format xml >"$T/bad.out" 2>"$T/bad.err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/bad.out" ] && grep -q -- "--summary-format: unknown format 'xml'" "$T/bad.err"
ok $? "--summary-format xml: exit 2 (got $rc), the option and the value named: $(head -n 1 "$T/bad.err")"
"$ANALYZE" "$T/steps" --summary=xml >"$T/bad.out" 2>"$T/bad.err"
rc=$?
[ $rc -eq 2 ] && [ ! -s "$T/bad.out" ] && grep -q -- "--summary: unknown summary format 'xml'" "$T/bad.err"
ok $? "--summary=xml: exit 2 (got $rc), named: $(head -n 1 "$T/bad.err")"
"$ANALYZE" "$T/steps" --summary-format >/dev/null 2>"$T/bad.err"
[ $? -eq 2 ] && grep -q -- "'--summary-format' needs a value" "$T/bad.err"
ok $? "--summary-format without a value: exit 2: $(head -n 1 "$T/bad.err")"
"$ANALYZE" "$T/steps" -o - --summary-format json >/dev/null 2>"$T/bad.err"
[ $? -eq 2 ]
ok $? "--summary-format json with '-o -' (both on standard output): exit 2"
"$ANALYZE" --help | grep -q -- '--summary-format FMT'
ok $? "--help describes --summary-format"
finish
