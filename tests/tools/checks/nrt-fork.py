"""nrt-fork.py — the checks of func/t-nrt-fork.sh on what the recorder wrote of apps/nrt-threads
run against the stand-in libnrt.so.1 with -f (a forked child executes a model its parent
loaded) and with -x (the program execs itself): the profiles as tools/dump-records prints them
(a JSON object a line), and the JSON lines the program printed (the child's, the parent's, or
one per run of the exec'd program).  The readers are lib-nrt.py's."""
import collections
import importlib
import json

from checklib import fail, main

nrtlib = importlib.import_module("lib-nrt")
images, status, nrt = nrtlib.images, nrtlib.status, nrtlib.nrt


def _fork_run(dump, child, parent):
    """The process images of the fork run, and what the child and the parent printed."""
    with open(child) as f, open(parent) as g:
        return images(dump), json.loads(f.read()), json.loads(g.read())


def fork_images(dump, child, parent):
    """Two process images, the parent's and the child's."""
    imgs, child, parent = _fork_run(dump, child, parent)
    if not child["ok"] or not parent["ok"]:
        fail("the program says it failed")
    if sorted(i["pid"] for i in imgs.values()) != sorted([child["child"], parent["pid"]]):
        fail("pids")


def fork_child(dump, child, parent):
    """The child's execution is in the child, named, on its NeuronCore, with its bytes (the
    model's and the tensors' names interned again in the child's image)."""
    imgs, child, parent = _fork_run(dump, child, parent)
    c = [i for i in imgs.values() if i["pid"] == child["child"]][0]
    names = [x["name"] for x in c["calls"]]
    if names != ["nrt_tensor_write", "nrt_tensor_write", "nrt_execute", "nrt_tensor_read"]:
        fail("child calls %s" % names)
    t = parent["threads"][0]
    a = nrt(c["calls"][2])
    if (a["name"], a["nc"], a["in_bytes"], a["out_bytes"], a["in_tensors"],
            status(c["calls"][2])) != (t["model"], t["nc"], t["in_bytes"], t["out_bytes"],
                                       t["in_tensors"], 0):
        fail("child execution %s" % a)
    if [nrt(x)["name"] for x in c["calls"]] != ["image", "bias", "resnet", "logits"]:
        fail("names")
    if not {"resnet", "image", "logits"} <= c["strings"]:
        fail("the child image lacks the names")


def fork_parent(dump, child, parent):
    """The parent's calls stay in the parent."""
    imgs, child, parent = _fork_run(dump, child, parent)
    p = [i for i in imgs.values() if i["pid"] == parent["pid"]][0]
    ex = [x for x in p["calls"] if x["name"] == "nrt_execute"]
    if len(ex) != 4 or sorted(nrt(x)["name"] for x in ex) != ["bert"] * 2 + ["resnet"] * 2:
        fail("parent executions")
    if [x["name"] for x in p["calls"]].count("nrt_load") != 2:
        fail("parent loads")


def exec_images(dump, out):
    """One process, two images, both runs whole (out: the program's output, a JSON line per
    run)."""
    imgs = images(dump)
    with open(out) as f:
        runs = [json.loads(line) for line in f]
    if len(runs) != 2 or runs[0]["pid"] != runs[1]["pid"] or not all(r["ok"] for r in runs):
        fail("runs %s" % runs)
    if len(imgs) != 2 or any(i["pid"] != runs[0]["pid"] for i in imgs.values()):
        fail("%d images" % len(imgs))


def exec_each_image(dump):
    """Each image has its own runtime, models, executions and names."""
    for i in images(dump).values():
        n = collections.Counter(x["name"] for x in i["calls"])
        if (n["nrt_init"], n["nrt_load"], n["nrt_execute"], n["nrt_close"]) != (1, 2, 4, 1):
            fail("calls %s" % n)
        ex = sorted(nrt(x)["name"] for x in i["calls"] if x["name"] == "nrt_execute")
        if ex != ["bert"] * 2 + ["resnet"] * 2:
            fail("executions %s" % ex)
        if not {"bert", "resnet"} <= i["strings"]:
            fail("names not in the image")
        if i["props"].get("nrt_version") != "2.28.0.0":
            fail("props")


if __name__ == "__main__":
    main(globals())
