#!/bin/sh
# Device timing under ThreadSanitizer with several operations begun at once per thread (as an
# NCCL group begins one per stream and ends them all at its ncclGroupEnd): no data race
# reported, and every operation not given up — and none other — is one DEVICE record.
. "$(dirname "$0")/lib.sh"
bin="$top_builddir/tests/unit/test-devtime-tsan"
[ -x "$bin" ] || skip_all "no ThreadSanitizer build (the compiler lacks -fsanitize=thread)"
[ -x "$DUMP" ] || skip_all "tools/dump-records was not built"
plan 4

out="$T/out"
tsan "runs to the end under ThreadSanitizer" "$bin" "$out"
"$DUMP" "$out" >"$T/dump.json" 2>"$T/dump.err"
ok $? "dump-records reads the profile"
check "one DEVICE record per operation ended, none for those given up, none lost" py '
import json, sys
want = dict(kv.split("=") for kv in open(sys.argv[2]).read().split())
recs = [json.loads(l) for l in open(sys.argv[1])]
dev = [r for r in recs if r["kind"] == "device"]
drops = [r for r in recs if r["kind"] == "drop"]
if len(dev) != int(want["ops"]) or sum(r["arg"] for r in dev) != int(want["corr_sum"]):
    sys.exit("%d records, corr sum %d; want %s" % (len(dev), sum(r["arg"] for r in dev), want))
if len(set(r["arg"] for r in dev)) != len(dev): sys.exit("an operation written twice")
bad = [r for r in dev if r["dev"]["end_ns"] < r["dev"]["start_ns"] or r["dev"]["bytes"] != r["arg"]]
if bad: sys.exit("bad records %s" % bad[:3])
if drops: sys.exit("drops %s" % drops)
' "$T/dump.json" "$T/stdout"
finish
