#!/bin/sh
# tprof-analyze's NCCL outputs end to end, on the trace of a synthetic 4-rank job written by
# apps/nccl-synth (AllReduce, Broadcast, AllGather, a group with a ring of sends, AllReduces
# on a split communicator, and one AllReduce a rank never called): the Chrome trace puts
# each collective's device span on its (device, stream) track with the arrow from its call
# (from ncclGroupEnd for a group), gives every span its instance, rank, lag and the last rank,
# links the ranks' spans of one instance and each send with its receive, and marks the
# incomplete instance; the summary's bandwidths and waits are what nccl-tests' formulas give
# from the recorded bytes and times; --group-by domain and the OTF2 archive take them too.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nccl-analyze.sh"
SYNTH="$APPS/nccl-synth"
[ -x "$SYNTH" ] || skip_all "apps/nccl-synth was not built"
plan 11

truth=$("$SYNTH" "$T/job") && [ -n "$truth" ]
ok $? "the synthetic job is written ($truth)"
INST=$(echo "$truth" | sed -n 's/.*instances=\([0-9]*\).*/\1/p')
COMPLETE=$(echo "$truth" | sed -n 's/.*complete=\([0-9]*\).*/\1/p')

"$ANALYZE" "$T/job" -f chrome -o "$T/t.json" -s >"$T/sum.txt" 2>"$T/err.txt"
ok $? "tprof-analyze writes the Chrome trace and the summary"

pyn '
d = load(sys.argv[1])
bad = launch_ok(d)
names = {(m["pid"], m["tid"]): m["args"]["name"] for m in d["traceEvents"] if m["ph"] == "M" and m["name"] == "thread_name"}
for e in spans(d):
    if names.get((e["pid"], e["tid"])) != "GPU %d stream 1" % e["args"]["device"]:
        bad.append("span %s on track %s" % (e["name"], names.get((e["pid"], e["tid"]))))
if bad or not spans(d):
    sys.exit("\n".join(bad[:10]) or "no spans")
' "$T/t.json"
ok $? "every collective span is on its GPU stream track, with the arrow from its call (groups: ncclGroupEnd)"

pyn '
d = load(sys.argv[1]); want, complete = int(sys.argv[2]), int(sys.argv[3])
inst = instances(d)
if len(inst) != want:
    sys.exit("%d instances, want %d" % (len(inst), want))
full = [v for v in inst.values() if all(e["args"]["matched"] for e in v)]
if len(full) != complete:
    sys.exit("%d complete instances, want %d" % (len(full), complete))
for v in full:
    a0 = v[0]["args"]
    if len(v) != a0["ranks_expected"] or len(v) != a0["ranks_seen"] or len({e["pid"] for e in v}) != len(v):
        sys.exit("instance %s: %d spans on %d processes, expected %s" % (a0["nccl_instance"], len(v), len({e["pid"] for e in v}), a0["ranks_expected"]))
    if sorted(e["args"]["rank"] for e in v) != list(range(len(v))):
        sys.exit("instance %s: ranks %s" % (a0["nccl_instance"], [e["args"]["rank"] for e in v]))
    if "ops" not in a0 and len({(e["args"]["comm"], e["args"]["seq"], e["args"]["op"]) for e in v}) != 1:
        sys.exit("instance %s mixes collectives" % a0["nccl_instance"])
    lag = {e["args"]["rank"]: ns(e["args"]["entered_after_first_us"]) for e in v}
    last = max(lag, key=lambda k: (lag[k], -k))
    if min(lag.values()) != 0 or any(e["args"]["last_to_enter"] != "rank %d" % last for e in v):
        sys.exit("instance %s: lags %s, last %s" % (a0["nccl_instance"], lag, v[0]["args"]["last_to_enter"]))
part = [v for v in inst.values() if v not in full]
if len(part) != 1 or len(part[0]) != 3 or any(e["args"]["ranks_seen"] != 3 or e["args"]["ranks_expected"] != 4 for e in part[0]):
    sys.exit("the incomplete instance: %s" % [[e["args"] for e in v] for v in part])
' "$T/t.json" "$INST" "$COMPLETE"
ok $? "$INST instances, each collective on every rank once; the one rank 3 never called marked incomplete (3 of 4)"

pyn '
d = load(sys.argv[1])
s, f = flows(d, "collective")
inst = instances(d)
if not s or set(s) != set(f):
    sys.exit("%d starts, %d ends" % (len(s), len(f)))
want = sum(len(v) - 1 for v in inst.values() if has_coll(v))
if len(s) != want:
    sys.exit("%d arrows, want %d" % (len(s), want))
for i in s:
    a, b = s[i], f[i]
    v = inst[a["args"]["nccl_instance"]]
    src = [e for e in v if (e["pid"], e["tid"]) == (a["pid"], a["tid"]) and within(e, ns(a["ts"]))]
    dst = [e for e in v if (e["pid"], e["tid"]) == (b["pid"], b["tid"]) and within(e, ns(b["ts"]))]
    if not src or not dst or src[0]["pid"] == dst[0]["pid"]:
        sys.exit("arrow %s: from %s to %s" % (i, a, b))
    if src[0]["args"]["started_after_first_us"] != max(e["args"]["started_after_first_us"] for e in v):
        sys.exit("arrow %s does not start at the rank that started last" % i)
' "$T/t.json"
ok $? "the ranks' spans of each instance are linked from the rank that started last"

pyn '
d = load(sys.argv[1])
s, f = flows(d, "send")
if len(s) != 16 or set(s) != set(f):
    sys.exit("%d send arrows" % len(s))
sp = spans(d)
for i in s:
    a, b = s[i], f[i]
    src = [e for e in sp if (e["pid"], e["tid"]) == (a["pid"], a["tid"]) and within(e, ns(a["ts"]))]
    dst = [e for e in sp if (e["pid"], e["tid"]) == (b["pid"], b["tid"]) and within(e, ns(b["ts"]))]
    if not src or not dst or src[0]["args"]["rank"] != a["args"]["src"] or dst[0]["args"]["rank"] != a["args"]["dst"] or a["args"]["dst"] != (a["args"]["src"] + 1) % 4 or a["args"]["bytes"] != 16384:
        sys.exit("send arrow %s: %s -> %s" % (i, a, b))
' "$T/t.json"
ok $? "each send of the ring is an arrow from the sender's group span to the receiver's"

pyn '
d = load(sys.argv[1])
c = [e for e in calls(d) if e["name"] == "ncclBroadcast"]
a = c[0]["args"] if c else {}
want = {"op": "Broadcast", "count": 65536, "dtype": "bfloat16", "bytes": 131072, "root": 1, "comm": "0x1234abcd", "nranks": 4}
if not c or any(a.get(k) != v for k, v in want.items()) or "seq" not in a or "rank" not in a:
    sys.exit("ncclBroadcast args: %s" % a)
g = [e for e in calls(d) if e["name"] in ("ncclAllReduce", "ncclSend") and "group" in e["args"]]
if len(g) != 32 or not all(e["args"]["group"].startswith("0x") for e in g):
    sys.exit("%d grouped calls name their group" % len(g))
r = [e for e in calls(d) if e["name"] == "ncclAllReduce" and e["args"]["comm"] == "0x1234abcd"]
if not r or r[0]["args"].get("redop") != "sum":
    sys.exit("AllReduce without its reduction: %s" % (r and r[0]["args"]))
' "$T/t.json"
ok $? "NCCL calls carry op, count, dtype, bytes, reduction, root, communicator, rank, size, seq and group"

pyn '
d = load(sys.argv[1]); text = open(sys.argv[2]).read()
bad = bw_check(d, text)
rows = sum_rows(text)
if len(rows) != 6:
    bad.append("%d rows: %s" % (len(rows), rows))
if bad:
    sys.exit("\n".join(bad))
' "$T/t.json" "$T/sum.txt"
ok $? "summary: algbw, busbw and the wait of every row are nccl-tests formulas on the recorded bytes and times"

grep -q "^NCCL API" "$T/sum.txt" && grep -q "ncclGroupEnd" "$T/sum.txt" &&
	grep -q "^NCCL send/receive" "$T/sum.txt" && grep -q "0 -> 1 (0x1234abcd)" "$T/sum.txt" &&
	grep -q "instances:   25, 1 incomplete" "$T/sum.txt"
ok $? "summary: the NCCL API table, the send/receive pairs, instances and the incomplete one counted"

"$ANALYZE" "$T/job" -f chrome -o "$T/dom.json" --group-by domain 2>"$T/err2.txt" && pyn '
d = load(sys.argv[1])
names = {m["pid"]: m["args"]["name"] for m in d["traceEvents"] if m["ph"] == "M" and m["name"] == "process_name"}
sp = spans(d)
if len(sp) != 83 or any(names.get(e["pid"]) != "GPU" for e in sp):
    sys.exit("%d spans, in %s" % (len(sp), {names.get(e["pid"]) for e in sp}))
if launch_ok(d) or len(flows(d, "collective")[0]) != 58:
    sys.exit("arrows: %s" % launch_ok(d)[:3])
' "$T/dom.json"
ok $? "--group-by domain: the spans in the GPU group, arrows kept"

if [ "${OTF2_PRINT:-no}" != no ] && [ -x "${OTF2_PRINT:-}" ]; then
	"$ANALYZE" "$T/job" -f otf2 -o "$T/otf2" 2>"$T/err3.txt" &&
		"$OTF2_PRINT" "$T/otf2/traces.otf2" >"$T/otf2.txt" 2>"$T/otf2.err" && ! grep -q . "$T/otf2.err" &&
		"$OTF2_PRINT" -G "$T/otf2/traces.otf2" >"$T/otf2.defs" 2>>"$T/otf2.err" &&
		grep -q '"ncclAllReduce"' "$T/otf2.defs" && grep -q 'ncclGroup' "$T/otf2.defs" &&
		[ "$(grep -c '^ENTER' "$T/otf2.txt")" -ge 83 ]
	ok $? "OTF2: the archive reads back with otf2-print, NCCL calls and collectives as regions"
else
	skip "otf2-print not found (configure looks for it)"
fi
finish
