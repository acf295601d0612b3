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

pycheck "CPU samples by function: ratio_three and the C++ method as their CPU time (3:1; each "\
"share within 10 %)" \
	cpu-ratio "$T/sum.json" "$three_cpu_us" "$one_cpu_us"

pycheck "stacks name the callers (ratio_loop under both, by frame pointers)" callers "$T/sum.json"

pycheck "the sleeping thread is Sleeping nearly all its life, and on a CPU only while it ran" \
	sleeper "$T/sum.json" "$sleeper_tid"

# Chrome: process numbers by pid, samples by thread
pycheck "Chrome: each thread's samples on its own track (ratio, other)" \
	thread-tracks "$T/out.json" "$ratio_tid" "$other_tid" "$pid"

pycheck "Chrome: the forked child and the exec'ed child are sampled, on their own processes" \
	children "$T/out.json" "$forked_pid" "$execd_pid"

pycheck "Chrome: state tracks, the sleeper Sleeping and the ratio thread Running for its CPU time" \
	states "$T/out.json" "$sleeper_tid" "$ratio_tid" "$MS" "$ratio_start_ns" "$ratio_end_ns" \
	"$ratio_taken_ms"

pycheck "Chrome: the RSS counter rises by the 96 MiB touched (within 5 %); busy % of every "\
"core, host memory" \
	counters "$T/out.json" "$pid" "$touch_start_ns" "$touch_end_ns"

pycheck "no sample lost at 999 Hz, none without its thread" none-lost "$T/sum.json"

# the other formats
"$ANALYZE" "$T/out" --format perfetto -o "$T/out.pftrace" >/dev/null 2>"$T/pf.err" &&
	"$PY" "$top_srcdir/tests/tools/pftrace.py" compare "$T/out.pftrace" "$T/out.json" \
		>/dev/null 2>>"$T/pf.err"
ok $? "Perfetto: protoc decodes it, every callstack resolves, and it matches the Chrome trace (samples, states, counters)"
[ -s "$T/pf.err" ] && diag "$(head -5 "$T/pf.err")"

"$PY" "$top_srcdir/tests/tools/pftrace.py" samples "$T/out.pftrace" >"$T/pf.json" 2>/dev/null
pycheck "Perfetto: PerfSamples of ratio_three on the ratio thread with their callers" \
	perfetto-samples "$T/pf.json" "$ratio_tid"

"$ANALYZE" "$T/out" --format otf2 -o "$T/out.otf2" >/dev/null 2>"$T/o.err" &&
	otf2_print "$T/out.otf2/traces.otf2" "$T/o.txt"
ok $? "OTF2: otf2-print reads the archive without complaint"
n=$(grep -c '^CALLING_CONTEXT_SAMPLE' "$T/o.txt")
s=$(grep -c '"Sleeping"' "$T/o.txt.defs")
[ "${n:-0}" -ge 1000 ] && [ "${s:-0}" -ge 1 ]
ok $? "OTF2: calling-context samples ($n) and the state regions"

"$ANALYZE" "$T/out" --format sqlite -o "$T/out.sqlite" >/dev/null 2>"$T/sq.err"
ok $? "SQLite: written"
pycheck "SQLite: every sample, named by its innermost function" \
	sqlite-samples "$T/out.sqlite" "$T/out.json"

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
