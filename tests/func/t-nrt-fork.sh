#!/bin/sh
# NRT recording across fork and exec, as for the other runtimes: a forked child that executes
# a model its parent loaded records to files of its own, its calls named (the model's and the
# tensors' names interned again in the child's image); a program that execs itself records
# each image apart, each with everything it did.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
need_nrt
plan 8

neff "$T/a.neff" resnet exec_us=5000 add=3 in=image:4096 in=bias:1024 out=logits:4096
neff "$T/b.neff" bert exec_us=5000 in=tokens:2048 out=hidden:2048
APP="$APPS/nrt-threads"

# ---- fork ----------------------------------------------------------------------------------
"$INSPECT" -o "$T/fork" -- "$APP" -n 2 -f "$T/a.neff" "$T/b.neff" >"$T/fork.out" 2>"$T/fork.err"
ok $? "fork: the program runs under tprof-inspect"
grep '^{"child"' "$T/fork.out" >"$T/child.json"
grep '^{"pid"' "$T/fork.out" >"$T/parent.json"
"$DUMP" "$T/fork" >"$T/fork.dump"
check "fork: two process images, the parent's and the child's" nrtpy '
imgs = images(sys.argv[1])
child, parent = json.loads(open(sys.argv[2]).read()), json.loads(open(sys.argv[3]).read())
if not child["ok"] or not parent["ok"]: fail("the program says it failed")
if sorted(i["pid"] for i in imgs.values()) != sorted([child["child"], parent["pid"]]): fail("pids")
' "$T/fork.dump" "$T/child.json" "$T/parent.json"
check "fork: the child's execution is in the child, named, on its NeuronCore, with its bytes" nrtpy '
imgs = images(sys.argv[1])
child, parent = json.loads(open(sys.argv[2]).read()), json.loads(open(sys.argv[3]).read())
c = [i for i in imgs.values() if i["pid"] == child["child"]][0]
names = [x["name"] for x in c["calls"]]
if names != ["nrt_tensor_write", "nrt_tensor_write", "nrt_execute", "nrt_tensor_read"]: fail("child calls %s" % names)
t = parent["threads"][0]
a = nrt(c["calls"][2])
if (a["name"], a["nc"], a["in_bytes"], a["out_bytes"], a["in_tensors"], status(c["calls"][2])) != \
   (t["model"], t["nc"], t["in_bytes"], t["out_bytes"], t["in_tensors"], 0): fail("child execution %s" % a)
if [nrt(x)["name"] for x in c["calls"]] != ["image", "bias", "resnet", "logits"]: fail("names")
if not {"resnet", "image", "logits"} <= c["strings"]: fail("the child image lacks the names")
' "$T/fork.dump" "$T/child.json" "$T/parent.json"
check "fork: the parent's calls stay in the parent" nrtpy '
imgs = images(sys.argv[1])
parent = json.loads(open(sys.argv[3]).read())
p = [i for i in imgs.values() if i["pid"] == parent["pid"]][0]
ex = [x for x in p["calls"] if x["name"] == "nrt_execute"]
if len(ex) != 4 or sorted(nrt(x)["name"] for x in ex) != ["bert"] * 2 + ["resnet"] * 2: fail("parent executions")
if [x["name"] for x in p["calls"]].count("nrt_load") != 2: fail("parent loads")
' "$T/fork.dump" "$T/child.json" "$T/parent.json"

# ---- exec of itself --------------------------------------------------------------------------
"$INSPECT" -o "$T/exec" -- "$APP" -n 2 -x "$T/a.neff" "$T/b.neff" >"$T/exec.out" 2>"$T/exec.err"
ok $? "exec: the program runs under tprof-inspect and execs itself"
"$DUMP" "$T/exec" >"$T/exec.dump"
check "exec: one process, two images, both runs whole" nrtpy '
imgs = images(sys.argv[1])
runs = [json.loads(l) for l in open(sys.argv[2])]
if len(runs) != 2 or runs[0]["pid"] != runs[1]["pid"] or not all(r["ok"] for r in runs): fail("runs %s" % runs)
if len(imgs) != 2 or any(i["pid"] != runs[0]["pid"] for i in imgs.values()): fail("%d images" % len(imgs))
' "$T/exec.dump" "$T/exec.out"
check "exec: each image has its own runtime, models, executions and names" nrtpy '
imgs = images(sys.argv[1])
for i in imgs.values():
    n = collections.Counter(x["name"] for x in i["calls"])
    if (n["nrt_init"], n["nrt_load"], n["nrt_execute"], n["nrt_close"]) != (1, 2, 4, 1): fail("calls %s" % n)
    ex = sorted(nrt(x)["name"] for x in i["calls"] if x["name"] == "nrt_execute")
    if ex != ["bert"] * 2 + ["resnet"] * 2: fail("executions %s" % ex)
    if not {"bert", "resnet"} <= i["strings"]: fail("names not in the image")
    if i["props"].get("nrt_version") != "2.28.0.0": fail("props")
' "$T/exec.dump"
check "the recorder says nothing" sh -c '! grep -q "^tprof\[" "$1" "$2"' sh "$T/fork.err" "$T/exec.err"
finish
