#!/bin/sh
# A Python program that reaches the Neuron runtime only through ctypes (dlopen of
# libnrt.so.1, then dlsym in the library's own handle) is traced like a linked one: every
# call, in order, the model's name and NeuronCore, the executions' bytes, the tensors'.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-nrt.sh"
need_nrt
plan 6

neff "$T/m.neff" ctypes-model exec_us=5000 add=2.5
# A sanitizer build's stand-in needs the ASan runtime loaded first (tprof-inspect does that).
asan=""
[ "${SANITIZERS:-no}" = yes ] && [ -n "${ASAN_RUNTIME:-}" ] && asan="$ASAN_RUNTIME"
env ${asan:+LD_PRELOAD="$asan"} "$PY" "$top_srcdir/tests/apps/nrt-ctypes.py" "$T/m.neff" 3 2.5 \
	>"$T/plain" 2>"$T/plain.err"
ok $? "the Python program runs without the recorder"
"$INSPECT" -o "$T/out" -- "$PY" "$top_srcdir/tests/apps/nrt-ctypes.py" "$T/m.neff" 3 2.5 \
	>"$T/stdout" 2>"$T/stderr"
ok $? "and under tprof-inspect"
check "its output is unchanged" sh -c 'grep -qx "cores=4 executions=3 ok=1" "$1" && cmp -s "$1" "$2"' \
	sh "$T/stdout" "$T/plain"
"$DUMP" "$T/out" >"$T/dump.json"
ok $? "dump-records reads the profile"
check "every NRT call the program made is recorded, in order, with its op" nrtpy '
imgs = images(sys.argv[1])
if len(imgs) != 1: fail("%d images" % len(imgs))
img = list(imgs.values())[0]
names = [c["name"] for c in img["calls"]]
want = ["nrt_init", "nrt_get_visible_nc_count", "nrt_load", "nrt_tensor_allocate", "nrt_tensor_allocate",
        "nrt_allocate_tensor_set", "nrt_allocate_tensor_set", "nrt_add_tensor_to_tensor_set",
        "nrt_add_tensor_to_tensor_set"] + ["nrt_tensor_write", "nrt_execute", "nrt_tensor_read"] * 3 + \
       ["nrt_tensor_free", "nrt_tensor_free", "nrt_destroy_tensor_set", "nrt_destroy_tensor_set",
        "nrt_unload", "nrt_close"]
if names != want: fail("calls %s" % names)
if any(status(c) for c in img["calls"]): fail("a call failed")
if not any(a.endswith("nrt-ctypes.py") for a in img["args"]): fail("command line %s" % img["args"])
' "$T/dump.json"
check "the model, its NeuronCore, the executions' and the tensors' bytes are there" nrtpy '
img = list(images(sys.argv[1]).values())[0]
c = img["calls"]
ld = nrt([x for x in c if x["name"] == "nrt_load"][0])
if (ld["name"], ld["nc"], ld["op"]) != ("ctypes-model", 0, LOAD): fail("load %s" % ld)
for x in c:
    if x["name"] == "nrt_execute":
        a = nrt(x)
        if (a["name"], a["nc"], a["in_bytes"], a["out_bytes"], a["in_tensors"], a["out_tensors"]) != \
           ("ctypes-model", 0, 4096, 4096, 1, 1): fail("execution %s" % a)
    if x["name"] in ("nrt_tensor_write", "nrt_tensor_read"):
        a = nrt(x)
        want = ("input" if x["name"] == "nrt_tensor_write" else "output", 4096, 0)
        if (a["name"], a["bytes"], a["nc"]) != want: fail("%s %s" % (x["name"], a))
if img["props"].get("nrt_instance") != "trn1": fail("props %s" % img["props"])
' "$T/dump.json"
finish
