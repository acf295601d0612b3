#!/bin/sh
# tprof-inspect --sample with the kernel probes, end to end on apps/sysratio's known work:
# two functions in a 3:1 ratio (one with a C++ name), a thread in another function, a
# sleeping thread, a forked and an exec'ed child, 96 MiB touched.  tprof-analyze must show
# the ratio in its CPU table within 10 % (the ratio the program's own CPU clock measured, 3:1
# on an idle machine), the sleeper asleep and not on a CPU, each sample on
# the thread and process that ran it, callers through frame pointers, the RSS rise within
# 5 %, and every trace format must carry the samples, the state tracks and the counters
# (python3 json, tools/pftrace.py over protoc, otf2-print, sqlite3).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-otf2.sh"
[ "$(id -u)" -eq 0 ] || skip_all "the kernel probes need root (CAP_BPF and CAP_PERFMON); the /proc sampler is tested by t-sample.sh"
grep -q '^#define HAVE_BPF 1' "$top_builddir/config.h" ||
	skip_all "this tprof was built without BPF (configure says why; scripts/install-deps.sh installs clang, bpftool and libbpf-dev)"
plan 19
MS=2500

"$APPS/sysratio" "$MS" >"$T/plain.out" 2>&1
plain_rc=$?
"$INSPECT" --sample all --sample-hz 999 -o "$T/out" -- "$APPS/sysratio" "$MS" >"$T/rec.out" \
	2>"$T/rec.err"
rc=$?
[ "$rc" -eq "$plain_rc" ] && [ "$rc" -eq 5 ] &&
	[ "$(sed 's/=.*//' "$T/rec.out" | sort)" = "$(sed 's/=.*//' "$T/plain.out" | sort)" ]
ok $? "exit status ($rc) and output as without tprof-inspect ($plain_rc)"
! grep -q 'system profile from /proc' "$T/rec.err"
ok $? "the kernel probes were used (no /proc fallback line)"
[ -s "$T/rec.err" ] && diag "$(head -3 "$T/rec.err")"

"$ANALYZE" "$T/out" --summary=json >"$T/sum.json" 2>"$T/sum.err" &&
	"$ANALYZE" "$T/out" --format chrome -o "$T/out.json" >/dev/null 2>>"$T/sum.err"
ok $? "tprof-analyze reads the profile"

# what the program said: pid, tids, children
KEYS='pid|(ratio|other|sleeper)_tid|(forked|execd)_pid|(touch|ratio)_(start|end)_ns'
KEYS="$KEYS|ratio_taken_ms|(three|one)_cpu_us"
eval "$(grep -E "^($KEYS)=[0-9]+\$" \
	"$T/rec.out")"

py '
import json, sys
s = json.load(open(sys.argv[1]))["system"]
f = {r["function"]: r for r in s["cpu_functions"]["rows"]}
three = f.get("ratio_three", {}).get("self_samples", 0)
one = f.get("tprof::test::Ratio::one()", {}).get("self_samples", 0)
cpu3, cpu1 = float(sys.argv[2]), float(sys.argv[3])
want = cpu1 / (cpu3 + cpu1)
print("# ratio_three %d, tprof::test::Ratio::one() %d samples; by its CPU clock %.0f and %.0f ms"
      % (three, one, cpu3 / 1e3, cpu1 / 1e3))
if three + one < 1000:
    sys.exit("too few samples: %d" % (three + one))
share = one / (three + one)
if abs(share - want) > 0.1 * want:
    sys.exit("the 1-unit function has %.1f %% of the pair, want %.1f %% within 10 %%"
             % (100 * share, 100 * want))
' "$T/sum.json" "$three_cpu_us" "$one_cpu_us"
ok $? "CPU samples by function: ratio_three and the C++ method as their CPU time (3:1; each share within 10 %)"

py '
import json, sys
s = json.load(open(sys.argv[1]))["system"]
f = {r["function"]: r for r in s["cpu_functions"]["rows"]}
pair = f["ratio_three"]["self_samples"] + f["tprof::test::Ratio::one()"]["self_samples"]
loop = f.get("ratio_loop", {}).get("total_samples", 0)
if loop < 0.95 * pair:
    sys.exit("ratio_loop is in %d stacks of %d" % (loop, pair))
' "$T/sum.json"
ok $? "stacks name the callers (ratio_loop under both, by frame pointers)"

py '
import json, sys
s = json.load(open(sys.argv[1]))["system"]
tid = int(sys.argv[2])
cpu = [r for r in s["cpu_threads"]["rows"] if r["tid"] == tid]
off = [r for r in s["off_cpu"]["rows"] if r["tid"] == tid]
if len(off) != 1:
    sys.exit("the sleeper is not in the off-CPU table once: %s" % off)
r = off[0]
life = r["running_ns"] + r["off_cpu_ns"]
if r["sleeping_ns"] < 0.95 * life or life < 2e9:
    sys.exit("sleeper: %s" % r)
# Its samples come only from the moments it ran: starting (its name, its first line, and in
# a sanitizer build the runtime'"'"'s own thread setup) and ending.  At 999 Hz that is one
# sample a millisecond of running, with a sample'"'"'s rounding at each end, however long a
# loaded machine makes those moments.
samples = cpu[0]["samples"] if cpu else 0
if samples > 2 + 1.5 * r["running_ns"] * 999 / 1e9:
    sys.exit("the sleeper has %d CPU samples in %.2f ms of running" % (samples, r["running_ns"] / 1e6))
' "$T/sum.json" "$sleeper_tid"
ok $? "the sleeping thread is Sleeping nearly all its life, and on a CPU only while it ran"

# Chrome: process numbers by pid, samples by thread
CHROME='
import json, re, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
procs = {}
for e in ev:
    if e["ph"] == "M" and e["name"] == "process_name":
        m = re.search(r"pid (\d+)\)", e["args"]["name"])
        if m:
            procs.setdefault(int(m.group(1)), set()).add(e["pid"])
samples = [e for e in ev if e.get("cat") == "sample"]
'
py "$CHROME"'
tids = {"ratio_three": int(sys.argv[2]), "tprof::test::Ratio::one()": int(sys.argv[2]),
        "other_spin": int(sys.argv[3])}
n = {k: 0 for k in tids}
for e in samples:
    if e["name"] in tids:
        n[e["name"]] += 1
        if e["tid"] != tids[e["name"]] or e["pid"] not in procs[int(sys.argv[4])]:
            sys.exit("%s sampled on pid %s tid %s" % (e["name"], e["pid"], e["tid"]))
if min(n.values()) < 100:
    sys.exit("samples: %s" % n)
' "$T/out.json" "$ratio_tid" "$other_tid" "$pid"
ok $? "Chrome: each thread's samples on its own track (ratio, other)"

py "$CHROME"'
for fn, pid in (("forked_spin", int(sys.argv[2])), ("execd_spin", int(sys.argv[3]))):
    mine = [e for e in samples if e["name"] == fn]
    if len(mine) < 200 or any(e["pid"] not in procs.get(pid, ()) or e["tid"] != pid for e in mine):
        sys.exit("%s: %d samples, on %s" % (fn, len(mine), sorted({(e["pid"], e["tid"]) for e in mine})[:4]))
' "$T/out.json" "$forked_pid" "$execd_pid"
ok $? "Chrome: the forked child and the exec'ed child are sampled, on their own processes"

py "$CHROME"'
st = {}
for e in ev:
    if e.get("cat") == "state":
        st.setdefault(e["tid"], []).append(e)
def total(tid, lo=float("-inf"), hi=float("inf")):
    t = {}
    for e in st.get(1000000000 + tid, []):
        d = min(e["ts"] + e["dur"], hi) - max(e["ts"], lo)
        if d > 0:
            t[e["name"]] = t.get(e["name"], 0) + d
    return t
names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
sl = total(int(sys.argv[2]))
if sl.get("Sleeping", 0) < 2e6 or "sleeper state" not in names:
    sys.exit("sleeper %s; thread names %s" % (sl, sorted(names)))
# The ratio thread, while it spun (its own clock'"'"'s marks): it spins until it has used MS ms of
# CPU, so Running is that CPU time however long a busy machine keeps it Runnable in between,
# plus at most what the host took from the CPUs meanwhile (steal and interrupts, which its CPU
# clock leaves out and the scheduler'"'"'s switches count).  It never waits, and its states cover
# the whole of that time.
t0 = json.load(open(sys.argv[1]))["otherData"]["trace_start_realtime_ns"]
lo, hi = (int(sys.argv[5]) - t0) / 1e3, (int(sys.argv[6]) - t0) / 1e3
ra = total(int(sys.argv[3]), lo, hi)
ms, taken = float(sys.argv[4]) * 1e3, float(sys.argv[7]) * 1e3
run, waited = ra.get("Running", 0), sum(v for k, v in ra.items() if k not in ("Running", "Runnable"))
print("# ratio thread while it spun (%.0f ms): %s; the host took %.0f ms" %
      ((hi - lo) / 1e3, {k: round(v / 1e3) for k, v in ra.items()}, taken / 1e3))
if not 0.9 * ms <= run <= 1.1 * ms + taken + 20e3 or waited > 0.02 * (hi - lo) or \
        sum(ra.values()) < 0.98 * (hi - lo):
    # what tells a state track that missed a switch from a misplaced window: the samples
    # of the ratio thread that fall in its other states, and the longest of those states
    tid = 1000000000 + int(sys.argv[3])
    other = sorted((e for e in st.get(tid, []) if e["name"] != "Running"),
                   key=lambda e: -e["dur"])
    inside = [e for e in other if any(s["tid"] == int(sys.argv[3]) and
                                      e["ts"] <= s["ts"] < e["ts"] + e["dur"] for s in samples)]
    print("# window %.0f..%.0f us; %d of its other states hold samples; longest: %s" %
          (lo, hi, len(inside), [(e["name"], e["ts"], e["dur"], e.get("args")) for e in other[:5]]))
    sys.exit("ratio thread: %s over %.0f ms, want Running for its %.0f ms of CPU" %
             (ra, (hi - lo) / 1e3, ms / 1e3))
' "$T/out.json" "$sleeper_tid" "$ratio_tid" "$MS" "$ratio_start_ns" "$ratio_end_ns" \
	"$ratio_taken_ms"
ok $? "Chrome: state tracks, the sleeper Sleeping and the ratio thread Running for its CPU time"

py "$CHROME"'
pid = int(sys.argv[2])
rss = [(e["ts"], e["args"]["value"]) for e in ev
       if e["ph"] == "C" and e["name"] == "RSS" and e["pid"] in procs[pid]]
rss.sort()
if len(rss) < 4:
    sys.exit("RSS samples: %d" % len(rss))
# The rise across the touching: the level before it began to the level when it had ended
# and before the next threads started 200 ms later (the counter is sampled every 50 ms, and
# written when it changes).  What the process held before (a sanitizer runtime, the
# recorder) and what its later threads add are not the touching.
t0 = json.load(open(sys.argv[1]))["otherData"]["trace_start_realtime_ns"]
at = lambda ns: (ns - t0) / 1e3
start, end = at(int(sys.argv[3])), at(int(sys.argv[4]))
before = [v for t, v in rss if t <= start]
after = [v for t, v in rss if t <= end + 150e3]
if not before:
    sys.exit("no RSS sample before the touching (at %.1f ms; the first at %.1f ms)" % (start / 1e3, rss[0][0] / 1e3))
rise = after[-1] - before[-1]
print("# RSS from %.1f MiB before the touching to %.1f MiB after it, rise %.1f MiB" %
      (before[-1] / 2**20, after[-1] / 2**20, rise / 2**20))
if abs(rise - 96 * 2**20) > 0.05 * 96 * 2**20:
    sys.exit("RSS rises by %.1f MiB, want 96 within 5 %%" % (rise / 2**20))
cores = {e["name"] for e in ev if e["ph"] == "C" and re.match(r"CPU \d+ busy %", e["name"])}
host = [e for e in ev if e["ph"] == "C" and e["name"] == "host memory used"]
import os
if len(cores) != os.cpu_count() or not host:
    sys.exit("core counters %s, host memory samples %d" % (sorted(cores), len(host)))
' "$T/out.json" "$pid" "$touch_start_ns" "$touch_end_ns"
ok $? "Chrome: the RSS counter rises by the 96 MiB touched (within 5 %); busy % of every core, host memory"

py '
import json, sys
lost = json.load(open(sys.argv[1]))["system"]["lost"]
if lost["samples_lost"] or lost["unattributed"]:
    sys.exit("lost %s" % lost)
' "$T/sum.json"
ok $? "no sample lost at 999 Hz, none without its thread"

# the other formats
"$ANALYZE" "$T/out" --format perfetto -o "$T/out.pftrace" >/dev/null 2>"$T/pf.err" &&
	"$PY" "$top_srcdir/tests/tools/pftrace.py" compare "$T/out.pftrace" "$T/out.json" \
		>/dev/null 2>>"$T/pf.err"
ok $? "Perfetto: protoc decodes it, every callstack resolves, and it matches the Chrome trace (samples, states, counters)"
[ -s "$T/pf.err" ] && diag "$(head -5 "$T/pf.err")"

"$PY" "$top_srcdir/tests/tools/pftrace.py" samples "$T/out.pftrace" >"$T/pf.json" 2>/dev/null
py '
import json, sys
s = json.load(open(sys.argv[1]))
r = [x for x in s if x["stack"] and x["stack"][0][0] == "ratio_three" and x["tid"] == int(sys.argv[2])]
if len(r) < 500 or any("ratio_loop" not in [f for f, m in x["stack"]] for x in r[:50]):
    sys.exit("%d ratio_three samples" % len(r))
' "$T/pf.json" "$ratio_tid"
ok $? "Perfetto: PerfSamples of ratio_three on the ratio thread with their callers"

"$ANALYZE" "$T/out" --format otf2 -o "$T/out.otf2" >/dev/null 2>"$T/o.err" &&
	otf2_print "$T/out.otf2/traces.otf2" "$T/o.txt"
ok $? "OTF2: otf2-print reads the archive without complaint"
n=$(grep -c '^CALLING_CONTEXT_SAMPLE' "$T/o.txt")
s=$(grep -c '"Sleeping"' "$T/o.txt.defs")
[ "${n:-0}" -ge 1000 ] && [ "${s:-0}" -ge 1 ]
ok $? "OTF2: calling-context samples ($n) and the state regions"

"$ANALYZE" "$T/out" --format sqlite -o "$T/out.sqlite" >/dev/null 2>"$T/sq.err"
ok $? "SQLite: written"
py '
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
chrome = [e for e in json.load(open(sys.argv[2]))["traceEvents"] if e.get("cat") == "sample"]
n = db.execute("select count(*) from samples").fetchone()[0]
leaf = dict(db.execute("select function, count(*) from named_samples group by function"))
if n != len(chrome) or leaf.get("ratio_three", 0) < 500:
    sys.exit("samples %d (Chrome %d), by leaf %s" % (n, len(chrome), sorted(leaf.items())[:5]))
' "$T/out.sqlite" "$T/out.json"
ok $? "SQLite: every sample, named by its innermost function"

# a program rebuilt after it was recorded: its frames are not named from the new file
cp "$APPS/sysratio" "$T/sysratio-copy"
"$INSPECT" --sample cpu --sample-hz 999 -o "$T/chg" -- "$T/sysratio-copy" 400 >/dev/null 2>&1
"$ANALYZE" "$T/chg" --summary >"$T/chg1.txt" 2>"$T/chg1.err"
grep -q ' ratio_three$' "$T/chg1.txt" && ! grep -q 'changed since it was recorded' "$T/chg1.err"
ok $? "the copy's frames are named while it is unchanged"
echo >>"$T/sysratio-copy"
"$ANALYZE" "$T/chg" --summary >"$T/chg2.txt" 2>"$T/chg2.err"
grep -q "sysratio-copy changed since it was recorded" "$T/chg2.err" &&
	! grep -q ' ratio_three$' "$T/chg2.txt" && grep -q ' sysratio-copy+0x' "$T/chg2.txt"
ok $? "after it changed (a byte appended): a warning, and its frames as file+offset"
finish
