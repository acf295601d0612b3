#!/bin/sh
# The system profile in tprof-analyze, on system images written by tools/mk-sysimage from a
# description: exact CPU shares (self and total) for a known mix of samples whose frames are
# named from a real binary (apps/sys-syms: a C function and a C++ method, at the addresses nm
# gives); a sleeping thread in the state tables but not in the CPU ones; thread states and
# counters in the Chrome trace; the window clipping states and leaving samples out; a thread
# and a process that recorded nothing getting tracks; a pid that execs; kernel frames from
# KSYM records (return addresses looked up at address - 1); and odd input (a pid nothing
# describes, a frame outside every mapping, an ELF file that is gone) said clearly.
. "$(dirname "$0")/lib.sh"
plan 17

MK="$top_builddir/tests/tools/mk-sysimage"
BIN="$APPS/sys-syms"

# The executable segment of the binary mapped at a PIE base, and the addresses of its two
# functions there (nm), as the sampler would find them.
eval "$("$PY" - "$BIN" <<'EOF'
import struct, subprocess, sys
path = sys.argv[1]
b = open(path, "rb").read()
phoff, = struct.unpack_from("<Q", b, 0x20)
phentsize, phnum = struct.unpack_from("<HH", b, 0x36)
base = 0x555555554000
for i in range(phnum):
    t, flags, off, vaddr, _, filesz, memsz, _ = struct.unpack_from("<IIQQQQQQ", b, phoff + i * phentsize)
    if t == 1 and flags & 1:
        print("MSTART=%#x MEND=%#x MOFF=%#x" % (base + (vaddr & ~0xfff),
              base + ((vaddr + memsz + 0xfff) & ~0xfff), off & ~0xfff))
syms = {}
for line in subprocess.run(["nm", "-S", path], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 4:
        syms[f[3]] = (int(f[0], 16), int(f[1], 16))
c, cpp = syms["tprof_sys_c_function"], syms["_ZN5tprof4test6Worker7computeEi"]
print("C_IP=%#x CPP_IP=%#x CPP_RET=%#x" % (base + c[0] + 1, base + cpp[0] + 2, base + cpp[0] + cpp[1] - 1))
EOF
)"
[ -n "${MSTART:-}" ] && [ -n "${C_IP:-}" ]
ok $? "the test binary's executable segment and functions are found (readelf, nm)"

# ---- a known mix: 3 samples in the C function called from the C++ method, 1 in the method
cat >"$T/mix.txt" <<EOF
image recorded host=node1 pid=100 ppid=1 exe=/usr/bin/app start=1ms end=900ms
thread tid=100 name=app
range tid=100 t0=2ms t1=800ms name=main-work
image system host=node1 pid=50 start=1ms end=1s target=100
task seen t=1ms pid=100 tid=100 ppid=1 comm=app exe=/usr/bin/app
task created t=5ms pid=100 tid=101 comm=compute
task created t=5ms pid=100 tid=103 comm=sleeper
maps t=1ms pid=100 start=$MSTART end=$MEND off=$MOFF path=$BIN
sample t=10ms pid=100 tid=101 cpu=0 u=$C_IP,$CPP_RET
sample t=11ms pid=100 tid=101 cpu=0 u=$C_IP,$CPP_RET
sample t=12ms pid=100 tid=101 cpu=1 u=$C_IP,$CPP_RET
sample t=13ms pid=100 tid=101 cpu=1 u=$CPP_IP
sched t=9ms pid=100 tid=101 cpu=0 state=running
sched t=14ms pid=100 tid=101 cpu=0 state=exited
sched t=2ms pid=100 tid=103 state=sleeping
sched t=50ms pid=100 tid=103 state=runnable
sched t=60ms pid=100 tid=103 cpu=1 state=running
sched t=70ms pid=100 tid=103 cpu=1 state=blocked
sched t=80ms pid=100 tid=103 cpu=1 state=exited
sysctr t=100ms what=busy of=0 value=250000
sysctr t=200ms what=busy of=0 value=750000
sysctr t=100ms what=busy of=1 value=1000000
sysctr t=100ms what=hostmem value=2000000000
sysctr t=200ms what=hostmem value=3000000000
sysctr t=100ms what=rss of=100 value=50000000
sysctr t=100ms what=faults of=101 value=7
drop t=500ms reason=5 count=3
EOF
"$MK" "$T/mix" <"$T/mix.txt" && "$ANALYZE" "$T/mix" --summary=json >"$T/mix.json" 2>"$T/mix.err"
ok $? "tprof-analyze reads a system image beside a recorded one"

py '
import json, sys
s = json.load(open(sys.argv[1]))["system"]
f = {r["function"]: r for r in s["cpu_functions"]["rows"]}
c, cpp = "tprof_sys_c_function", "tprof::test::Worker::compute(int)"
want = {c: (3, 75.0, 3, 75.0), cpp: (1, 25.0, 4, 100.0)}
got = {k: (f[k]["self_samples"], f[k]["self_pct"], f[k]["total_samples"], f[k]["total_pct"])
       for k in want if k in f}
if got != want or s["cpu_functions"]["samples"] != 4:
    sys.exit("functions: %s" % s["cpu_functions"])
' "$T/mix.json"
ok $? "CPU samples by function: the C function 75 % self, the C++ method demangled, 25 % self and 100 % total"

py '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["system"]
thr = [(r["thread"], r["samples"], r["share_pct"]) for r in s["cpu_threads"]["rows"]]
off = {r["thread"]: r for r in s["off_cpu"]["rows"]}
sl = off.get("sleeper (tid 103)")
ms = 1000000
if thr != [("compute (tid 101)", 4, 100.0)]:
    sys.exit("threads: %s" % thr)
if not sl or (sl["sleeping_ns"], sl["runnable_ns"], sl["running_ns"], sl["blocked_ns"]) != (48 * ms, 10 * ms, 10 * ms, 10 * ms):
    sys.exit("sleeper: %s" % sl)
if s["off_cpu"]["total"]["off_cpu_ns"] != 68 * ms:
    sys.exit("total: %s" % s["off_cpu"]["total"])
' "$T/mix.json"
ok $? "the sleeping thread is in the off-CPU table (48 ms sleeping, 10 ms runnable, 10 ms blocked) and not in the CPU one"

py '
import json, sys
d = json.load(open(sys.argv[1]))
s = d["system"]
cores = [(r["cpu"], r["avg_pct"], r["max_pct"]) for r in s["cpu_cores"]["rows"]]
mem = sorted((r["kind"], r["peak_bytes"]) for r in s["memory"]["rows"])
if cores != [(0, 50.0, 75.0), (1, 100.0, 100.0)] or mem != [("host", 3e9), ("process", 5e7)]:
    sys.exit("cores %s memory %s" % (cores, mem))
if s["lost"]["samples_lost"] != 3 or d["header"]["dropped"]["samples_lost"] != 3:
    sys.exit("lost: %s %s" % (s["lost"], d["header"]["dropped"]))
' "$T/mix.json"
ok $? "utilisation per core, host and process memory peaks, and 3 samples lost"

"$ANALYZE" "$T/mix" -s >"$T/mix.txt.out" 2>&1 &&
	grep -q '^CPU samples by function' "$T/mix.txt.out" && grep -q '^Off-CPU time by thread and reason' "$T/mix.txt.out" &&
	grep -q 'samples lost .*: 3' "$T/mix.txt.out" && grep -q 'system (node1)' "$T/mix.txt.out"
ok $? "the text summary has the system tables, the lost samples and the system process"

"$ANALYZE" "$T/mix" -f chrome -o "$T/mix-trace.json" 2>/dev/null &&
	pyc '
d = load(sys.argv[1])
ev = events(d)
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in d["traceEvents"] if e["name"] == "thread_name"}
pn = {e["pid"]: e["args"]["name"] for e in d["traceEvents"] if e["name"] == "process_name"}
app = [p for p, n in pn.items() if n.startswith("app (node1, pid 100)")][0]
sysp = [p for p, n in pn.items() if n == "system (node1)"][0]
st = sorted((e["name"], e["ts"], e["dur"]) for e in ev if e.get("cat") == "state" and names.get((e["pid"], e["tid"])) == "sleeper state")
want = [("Blocked (I/O)", 69000.0, 10000.0), ("Runnable", 49000.0, 10000.0), ("Running", 59000.0, 10000.0), ("Sleeping", 1000.0, 48000.0)]
ctr = {(e["pid"], e["name"]) for e in ev if e["ph"] == "C"}
wantc = {(sysp, "CPU 0 busy %"), (sysp, "CPU 1 busy %"), (sysp, "host memory used"), (app, "RSS"), (app, "page faults (compute, tid 101)")}
if st != want:
    sys.exit("states %s" % st)
if ctr != wantc:
    sys.exit("counters %s" % ctr)
if (app, 101) not in names or names[(app, 101)] != "compute":
    sys.exit("no track for the thread that recorded nothing: %s" % names)
o = {(e["pid"], e["tid"]): e["args"]["sort_index"] for e in d["traceEvents"] if e["name"] == "thread_sort_index"}
sl = [k for k, n in names.items() if n == "sleeper state"][0]
if o[sl] != o[(app, 103)] + 1 if (app, 103) in o else o[sl] != 3 * 103 + 4:
    sys.exit("the state track does not sort right after its thread: %s" % o)
' "$T/mix-trace.json"
ok $? "Chrome: the sleeper's state track holds its four states; counters on the system process, the app and the thread"

"$ANALYZE" "$T/mix" --start 54000 --end 64000 --summary=json >"$T/win.json" 2>/dev/null &&
	"$ANALYZE" "$T/mix" --start 54000 --end 64000 -f chrome -o "$T/win-trace.json" 2>/dev/null &&
	py '
import json, sys
s = json.load(open(sys.argv[1]))["system"]
off = {r["thread"]: r for r in s["off_cpu"]["rows"]}
sl = off["sleeper (tid 103)"]
ms = 1000000
if s["cpu_functions"]["samples"] != 0 or (sl["runnable_ns"], sl["running_ns"], sl["sleeping_ns"]) != (5 * ms, 5 * ms, 0):
    sys.exit("window: %s %s" % (s["cpu_functions"], sl))
d = json.load(open(sys.argv[2]))
st = sorted((e["name"], e["ts"], e["dur"], e.get("args", {}).get("clipped")) for e in d["traceEvents"] if e.get("cat") == "state")
if st != [("Runnable", 54000.0, 5000.0, True), ("Running", 59000.0, 5000.0, True)]:
    sys.exit("states %s" % st)
' "$T/win.json" "$T/win-trace.json"
ok $? "a window keeps no sample outside it and clips the states at its edges"

# ---- exec, a process that recorded nothing, kernel frames, odd input
cat >"$T/odd.txt" <<EOF
image recorded host=node1 pid=300 ppid=1 exe=/usr/bin/app2 start=60ms end=900ms
thread tid=300 name=app2
range tid=300 t0=61ms t1=800ms name=work
image system host=node1 pid=50 start=1ms end=1s target=300
task created t=5ms pid=300 tid=300 ppid=1 comm=sh exe=/bin/sh
task exec t=50ms pid=300 tid=300 gen=1 comm=app2 exe=/usr/bin/app2
task created t=6ms pid=400 tid=400 ppid=300 comm=helper exe=/usr/bin/helper
task created t=7ms pid=400 tid=401 comm=helper-io
maps t=6ms pid=400 start=0x400000 end=0x401000 off=0 path=/nonexistent/libgone.so
ksym t=1ms addr=0xffffffff81000000 end=0xffffffff81000100 name=schedule
ksym t=1ms addr=0xffffffff81000100 end=0xffffffff81000200 name=do_syscall_64
sample t=20ms pid=300 tid=300 cpu=0 u=0x7777
sample t=100ms pid=300 tid=300 cpu=0 k=0xffffffff81000010,0xffffffff81000200 u=0x7777
sample t=30ms pid=400 tid=401 cpu=1 u=0x400010
sample t=40ms pid=999 tid=999 cpu=1 u=0x1234
sched t=30ms pid=400 tid=401 cpu=1 state=running
sched t=35ms pid=400 tid=401 cpu=1 state=sleeping
sysctr t=100ms what=rss of=400 value=1000
EOF
"$MK" "$T/odd" <"$T/odd.txt" && "$ANALYZE" "$T/odd" --summary=json >"$T/odd.json" 2>"$T/odd.err"
ok $? "odd input: tprof-analyze succeeds"

py '
import json, sys
d = json.load(open(sys.argv[1]))
labels = sorted(p["label"] for p in d["header"]["process_list"])
only = sorted(p["label"] for p in d["header"]["process_list"] if p["sampled_only"])
want = ["app2 (node1, pid 300)", "helper (node1, pid 400)", "sh (node1, pid 300, before exec)", "system (node1)"]
if labels != want or only != ["helper (node1, pid 400)", "sh (node1, pid 300, before exec)"]:
    sys.exit("processes %s, made %s" % (labels, only))
thr = sorted((r["process_label"], r["thread"], r["samples"]) for r in d["system"]["cpu_threads"]["rows"])
if thr != [("app2 (node1, pid 300)", "app2 (tid 300)", 1), ("helper (node1, pid 400)", "helper-io (tid 401)", 1), ("sh (node1, pid 300, before exec)", "sh (tid 300)", 1)]:
    sys.exit("threads %s" % thr)
' "$T/odd.json"
ok $? "a pid that execs: its samples before the exec go to a process made for it, after to the recorded image; a process that recorded nothing gets one"

py '
import json, sys
s = json.load(open(sys.argv[1]))["system"]
f = {r["function"]: (r["self_samples"], r["total_samples"]) for r in s["cpu_functions"]["rows"]}
want = {"schedule": (1, 1), "do_syscall_64": (0, 1), "0x7777": (1, 2), "libgone.so+0x10": (1, 1)}
if f != want:
    sys.exit("functions %s" % f)
l = s["lost"]
if (l["unattributed"], l["missing_files"]) != (1, 1) or l["unresolved_addresses"] < 2:
    sys.exit("lost %s" % l)
' "$T/odd.json"
ok $? "kernel frames named by KSYM (a return address at address - 1), unresolved frames as 0xADDR and file+0xOFF"

grep -q "warning: /nonexistent/libgone.so: cannot read this ELF file" "$T/odd.err" &&
	grep -q "1 system records name a thread that no TASK record or process image describes (the first: pid 999, tid 999)" "$T/odd.err"
ok $? "the missing ELF file and the unknown pid are said on stderr"

for f in chrome perfetto otf2 sqlite; do
	case $f in chrome) o="$T/odd.chrome.json" ;; *) o="$T/odd.$f" ;; esac
	"$ANALYZE" "$T/odd" -f "$f" -o "$o" >/dev/null 2>&1 || break
done
ok $? "odd input: every format is written"

pyc '
d = load(sys.argv[1])
pn = {e["pid"]: e["args"]["name"] for e in d["traceEvents"] if e["name"] == "process_name"}
names = {(pn.get(e["pid"]), e["args"]["name"]) for e in d["traceEvents"] if e["name"] == "thread_name"}
for want in [("helper (node1, pid 400)", "helper-io"), ("helper (node1, pid 400)", "helper-io state"), ("sh (node1, pid 300, before exec)", "sh")]:
    if want not in names:
        sys.exit("no track %s in %s" % (want, sorted(names)))
' "$T/odd.chrome.json"
ok $? "Chrome: the made process and its thread have tracks (the thread with its state track)"

# ---- a truncated image (no END, a sample cut short) still reads
printf 'image system host=node2 pid=60 start=1ms end=10ms noend\ntask seen t=1ms pid=61 tid=61 comm=x\nsample t=2ms pid=61 tid=61 cpu=0 u=0x1\n' |
	"$MK" "$T/cut" && "$ANALYZE" "$T/cut" --summary=json >"$T/cut.json" 2>/dev/null &&
	py 'import json,sys; s=json.load(open(sys.argv[1]))["system"]; sys.exit(0 if s["cpu_functions"]["samples"] == 1 else "samples %s" % s["cpu_functions"])' "$T/cut.json"
ok $? "a system image without END still gives its samples"

"$ANALYZE" "$T/mix" -s --top 1 2>/dev/null | grep -A3 '^CPU samples by function' | grep -q 'more (--top 0 shows all)'
ok $? "--top cuts the function table"

# ---- a state track that missed a switch: a thread shown Runnable whose samples say it runs
# is Running from its first sample on; a sample within 1 ms of a switch away (the switch's
# own race) leaves the new state alone.
cat >"$T/miss.txt" <<EOF
image recorded host=node1 pid=500 ppid=1 exe=/usr/bin/spin start=1ms end=900ms
thread tid=500 name=spin
range tid=500 t0=2ms t1=800ms name=work
image system host=node1 pid=50 start=1ms end=1s target=500
task seen t=1ms pid=500 tid=500 ppid=1 comm=spin exe=/usr/bin/spin
task created t=2ms pid=500 tid=501 comm=napper
sched t=5ms pid=500 tid=500 cpu=0 state=running
sched t=10ms pid=500 tid=500 state=runnable
sample t=20ms pid=500 tid=500 cpu=1 u=0x7777
sample t=21ms pid=500 tid=500 cpu=1 u=0x7777
sched t=30ms pid=500 tid=500 state=runnable
sched t=40ms pid=500 tid=500 cpu=0 state=running
sched t=5ms pid=500 tid=501 cpu=1 state=running
sched t=50ms pid=500 tid=501 state=sleeping
sample t=50500us pid=500 tid=501 cpu=1 u=0x7777
sched t=90ms pid=500 tid=501 state=exited
EOF
"$MK" "$T/miss" <"$T/miss.txt" && "$ANALYZE" "$T/miss" -f chrome -o "$T/miss.json" 2>"$T/miss.err" &&
	py '
import json, sys
d = json.load(open(sys.argv[1]))
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in d["traceEvents"]
         if e["ph"] == "M" and e["name"] == "thread_name"}
def states(who):
    return sorted((e["name"], e["ts"] / 1e3, (e["ts"] + e["dur"]) / 1e3) for e in d["traceEvents"]
                  if e.get("cat") == "state" and names.get((e["pid"], e["tid"])) == who)
spin = sorted(states("spin state"), key=lambda s: s[1])
base = spin[0][1] - 5 if spin else 0
got = [(n, round(a - base), round(b - base)) for n, a, b in spin][:4]
want = [("Running", 5, 10), ("Runnable", 10, 20), ("Running", 20, 30), ("Runnable", 30, 40)]
nap = [n for n, _, _ in states("napper state")]
if got != want or "Sleeping" not in nap:
    sys.exit("spin %s (want %s); napper %s" % (got, want, nap))
' "$T/miss.json"
ok $? "a state track that missed a switch runs from the thread's first sample; a sample in a switch's own race changes nothing"

finish
