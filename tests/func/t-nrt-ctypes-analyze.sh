#!/bin/sh
# A Python program that reaches the Neuron runtime only through ctypes (apps/nrt-ctypes.py:
# dlopen of libnrt.so.1, dlsym in its handle), traced by tprof-inspect and analyzed: its
# executions on its process's "nc 0" track, named by the model, each from as long as the
# stand-in took for it to as long as the program timed the call, its tensor writes and reads
# there too; the calls on the Python thread; the summary's model row from the same spans.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
. "$(dirname "$0")/lib-nrt-analyze.sh"
need_nrt
plan 5
RUNS=4

# Executions of tens of ms: the recorded span holds the stand-in's call, and only the
# wrapper's own time separates them (unbounded on a loaded machine, which may preempt the
# thread there: the program's own timing of the call bounds the span from above).
neff "$T/m.neff" ctypes-model exec_us=60000 add=2.5 &&
	STANDIN_NRT_TRACE_FILE="$T/standin.trace" "$INSPECT" -o "$T/out" -- \
		"$PY" "$top_srcdir/tests/apps/nrt-ctypes.py" "$T/m.neff" $RUNS 2.5 timed \
		>"$T/stdout" 2>"$T/stderr" &&
	grep -q "executions=$RUNS ok=1" "$T/stdout"
ok $? "the ctypes program runs under tprof-inspect, its outputs right"

"$ANALYZE" "$T/out" -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/an.err"
ok $? "tprof-analyze writes the Chrome trace and the summary"

pyc "$NRT_PY"'
d = load(sys.argv[1]); runs = int(sys.argv[3]); names = tracknames(d)
sn = [json.loads(l) for l in open(sys.argv[2])]
ran = sorted((l for l in sn if l["event"] == "exec"), key=lambda l: l["entry_ns"])
label = [n for p, (n, r) in procs(d).items()]
if len(label) != 1 or "nrt-ctypes.py" not in label[0]:
    sys.exit("processes %s" % label)
timed = [int(v) for v in open(sys.argv[4]).readline().split("=")[1].split(",")]
app = list(timed)
spans = core_spans(d)
ex = sorted((e for e in spans if e["args"]["call"] == "nrt_execute"), key=lambda e: e["ts"])
if len(ex) != runs or len(ran) != runs or len(timed) != runs:
    sys.exit("%d executions on NeuronCore tracks, %d in the stand-in trace, want %d" % (len(ex), len(ran), runs))
for e, l in zip(ex, ran):
    if names[(e["pid"], e["tid"])] != "nc 0" or e["name"] != "ctypes-model" or e["args"]["nc"] != 0:
        sys.exit("execution %s on %s" % (e, names[(e["pid"], e["tid"])]))
    real, got = l["return_ns"] - l["entry_ns"], ns(e["dur"])
    slack = 20000 + 0.002 * real
    if not real - slack <= got <= app.pop(0) + slack:
        sys.exit("execution of %d ns, the stand-in took %d ns, the program timed %s" %
                 (got, real, timed))
    if (e["args"]["input_bytes"], e["args"]["output_bytes"]) != (4096, 4096):
        sys.exit("execution args %s" % e["args"])
io = [e for e in spans if e["name"] in ("nrt_tensor_write", "nrt_tensor_read")]
if len(io) != 2 * runs or any(names[(e["pid"], e["tid"])] != "nc 0" or e["args"]["bytes"] != 4096 for e in io):
    sys.exit("tensor calls on cores: %s" % [(e["name"], names[(e["pid"], e["tid"])]) for e in io])
' "$T/t.json" "$T/standin.trace" $RUNS "$T/stdout"
ok $? "each execution on nc 0, named by the model, as long as the stand-in took; tensor I/O there too"

pyc "$NRT_PY"'
d = load(sys.argv[1]); names = tracknames(d)
calls = [e for e in events(d) if e["ph"] == "X" and e.get("cat") == "nrt"]
threads = {(e["pid"], e["tid"]) for e in calls}
if len(threads) != 1 or names[threads.pop()].startswith("nc "):
    sys.exit("NRT calls on %s" % {names[(e["pid"], e["tid"])] for e in calls})
want = {"nrt_init", "nrt_get_visible_nc_count", "nrt_load", "nrt_tensor_allocate", "nrt_allocate_tensor_set",
        "nrt_add_tensor_to_tensor_set", "nrt_tensor_write", "nrt_execute", "nrt_tensor_read", "nrt_tensor_free",
        "nrt_destroy_tensor_set", "nrt_unload", "nrt_close"}
if {e["name"] for e in calls} != want:
    sys.exit("calls %s" % sorted({e["name"] for e in calls}))
' "$T/t.json"
ok $? "every call the program made through ctypes is on its Python thread"

pyc "$NRT_PY"'
err = model_table_errors(load(sys.argv[1]), open(sys.argv[2]).read())
if err:
    sys.exit(err)
if not re.search(r"\n +\d+\.\d+ % +\S+ \w+ +4 .*  0 +ctypes-model\n", open(sys.argv[2]).read()):
    sys.exit("no row of 4 executions of ctypes-model on core 0")
' "$T/t.json" "$T/sum.txt"
ok $? "the summary: 4 executions of ctypes-model on core 0, equal to the Chrome trace's"
finish
