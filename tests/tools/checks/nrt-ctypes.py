"""nrt-ctypes.py — the checks of func/t-nrt-ctypes.sh on what the recorder wrote of
apps/nrt-ctypes.py, a Python program that reaches the stand-in libnrt.so.1 only through ctypes
(tools/dump-records output, a JSON object a line).  The readers are lib-nrt.py's."""
import importlib

from checklib import fail, main

nrtlib = importlib.import_module("lib-nrt")
images, status, nrt, LOAD = nrtlib.images, nrtlib.status, nrtlib.nrt, nrtlib.LOAD


def every_call(dump):
    """Every NRT call the program made is recorded, in order, with its op."""
    imgs = images(dump)
    if len(imgs) != 1:
        fail("%d images" % len(imgs))
    img = list(imgs.values())[0]
    names = [c["name"] for c in img["calls"]]
    want = (["nrt_init", "nrt_get_visible_nc_count", "nrt_load", "nrt_tensor_allocate",
             "nrt_tensor_allocate", "nrt_allocate_tensor_set", "nrt_allocate_tensor_set",
             "nrt_add_tensor_to_tensor_set", "nrt_add_tensor_to_tensor_set"] +
            ["nrt_tensor_write", "nrt_execute", "nrt_tensor_read"] * 3 +
            ["nrt_tensor_free", "nrt_tensor_free", "nrt_destroy_tensor_set",
             "nrt_destroy_tensor_set", "nrt_unload", "nrt_close"])
    if names != want:
        fail("calls %s" % names)
    if any(status(c) for c in img["calls"]):
        fail("a call failed")
    if not any(a.endswith("nrt-ctypes.py") for a in img["args"]):
        fail("command line %s" % img["args"])


def model_and_bytes(dump):
    """The model, its NeuronCore, the executions' and the tensors' bytes are there."""
    img = list(images(dump).values())[0]
    c = img["calls"]
    ld = nrt([x for x in c if x["name"] == "nrt_load"][0])
    if (ld["name"], ld["nc"], ld["op"]) != ("ctypes-model", 0, LOAD):
        fail("load %s" % ld)
    for x in c:
        if x["name"] == "nrt_execute":
            a = nrt(x)
            if (a["name"], a["nc"], a["in_bytes"], a["out_bytes"], a["in_tensors"],
                    a["out_tensors"]) != ("ctypes-model", 0, 4096, 4096, 1, 1):
                fail("execution %s" % a)
        if x["name"] in ("nrt_tensor_write", "nrt_tensor_read"):
            a = nrt(x)
            want = ("input" if x["name"] == "nrt_tensor_write" else "output", 4096, 0)
            if (a["name"], a["bytes"], a["nc"]) != want:
                fail("%s %s" % (x["name"], a))
    if img["props"].get("nrt_instance") != "trn1":
        fail("props %s" % img["props"])


if __name__ == "__main__":
    main(globals())
