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
eval "$("$PY" -B "$CHECKS" elf-addresses "$BIN")"
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

"$PY" -B "$CHECKS" mix-functions "$T/mix.json"
ok $? "CPU samples by function: the C function 75 % self, the C++ method demangled, 25 % self and 100 % total"

"$PY" -B "$CHECKS" mix-off-cpu "$T/mix.json"
ok $? "the sleeping thread is in the off-CPU table (48 ms sleeping, 10 ms runnable, 10 ms blocked) and not in the CPU one"

"$PY" -B "$CHECKS" mix-cores-memory-lost "$T/mix.json"
ok $? "utilisation per core, host and process memory peaks, and 3 samples lost"

"$ANALYZE" "$T/mix" -s >"$T/mix.txt.out" 2>&1 &&
	grep -q '^CPU samples by function' "$T/mix.txt.out" && grep -q '^Off-CPU time by thread and reason' "$T/mix.txt.out" &&
	grep -q 'samples lost .*: 3' "$T/mix.txt.out" && grep -q 'system (node1)' "$T/mix.txt.out"
ok $? "the text summary has the system tables, the lost samples and the system process"

"$ANALYZE" "$T/mix" -f chrome -o "$T/mix-trace.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" mix-chrome "$T/mix-trace.json"
ok $? "Chrome: the sleeper's state track holds its four states; counters on the system process, the app and the thread"

"$ANALYZE" "$T/mix" --start 54000 --end 64000 --summary=json >"$T/win.json" 2>/dev/null &&
	"$ANALYZE" "$T/mix" --start 54000 --end 64000 -f chrome -o "$T/win-trace.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" window-clips "$T/win.json" "$T/win-trace.json"
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

"$PY" -B "$CHECKS" odd-processes "$T/odd.json"
ok $? "a pid that execs: its samples before the exec go to a process made for it, after to the recorded image; a process that recorded nothing gets one"

"$PY" -B "$CHECKS" odd-frames "$T/odd.json"
ok $? "kernel frames named by KSYM (a return address at address - 1), unresolved frames as 0xADDR and file+0xOFF"

grep -q "warning: /nonexistent/libgone.so: cannot read this ELF file" "$T/odd.err" &&
	grep -q "1 system records name a thread that no TASK record or process image describes (the first: pid 999, tid 999)" "$T/odd.err"
ok $? "the missing ELF file and the unknown pid are said on stderr"

for f in chrome perfetto otf2 sqlite; do
	case $f in chrome) o="$T/odd.chrome.json" ;; *) o="$T/odd.$f" ;; esac
	"$ANALYZE" "$T/odd" -f "$f" -o "$o" >/dev/null 2>&1 || break
done
ok $? "odd input: every format is written"

"$PY" -B "$CHECKS" odd-chrome-tracks "$T/odd.chrome.json"
ok $? "Chrome: the made process and its thread have tracks (the thread with its state track)"

# ---- a truncated image (no END, a sample cut short) still reads
printf 'image system host=node2 pid=60 start=1ms end=10ms noend\ntask seen t=1ms pid=61 tid=61 comm=x\nsample t=2ms pid=61 tid=61 cpu=0 u=0x1\n' |
	"$MK" "$T/cut" && "$ANALYZE" "$T/cut" --summary=json >"$T/cut.json" 2>/dev/null &&
	"$PY" -B "$CHECKS" cut-samples "$T/cut.json"
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
	"$PY" -B "$CHECKS" missed-switch "$T/miss.json"
ok $? "a state track that missed a switch runs from the thread's first sample; a sample in a switch's own race changes nothing"

finish
