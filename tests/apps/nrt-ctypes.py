# nrt-ctypes.py — drives the Neuron runtime from Python through ctypes, the way Python
# bindings do: dlopen of libnrt.so.1, then dlsym of each function in the library's own handle.
# Loads the NEFF given, gives the model an input and an output tensor on NeuronCore 0,
# executes it a few times and checks the output (input + the model's constant, elementwise).
# Prints "cores=N executions=N ok=0|1"; with "timed", first "spans_ns=" and how long each
# nrt_execute took as the program timed it (monotonic ns around the call, comma-separated).
# Usage: nrt-ctypes.py NEFF EXECUTIONS ADD [timed]
import ctypes
import sys
import time
from ctypes import byref, c_char_p, c_float, c_int, c_size_t, c_uint32, c_void_p

nrt = ctypes.CDLL("libnrt.so.1")
for name, args in {
    "nrt_init": [c_int, c_char_p, c_char_p],
    "nrt_load": [c_void_p, c_size_t, c_int, c_int, c_void_p],
    "nrt_get_visible_nc_count": [c_void_p],
    "nrt_tensor_allocate": [c_int, c_int, c_size_t, c_char_p, c_void_p],
    "nrt_tensor_write": [c_void_p, c_void_p, c_size_t, c_size_t],
    "nrt_tensor_read": [c_void_p, c_void_p, c_size_t, c_size_t],
    "nrt_allocate_tensor_set": [c_void_p],
    "nrt_add_tensor_to_tensor_set": [c_void_p, c_char_p, c_void_p],
    "nrt_execute": [c_void_p, c_void_p, c_void_p],
    "nrt_tensor_free": [c_void_p],
    "nrt_destroy_tensor_set": [c_void_p],
    "nrt_unload": [c_void_p],
}.items():
    getattr(nrt, name).argtypes = args
    getattr(nrt, name).restype = c_int
nrt.nrt_close.restype = None

neff = open(sys.argv[1], "rb").read()
runs, add = int(sys.argv[2]), float(sys.argv[3])
n = 1024
assert nrt.nrt_init(1, b"1.0", b"1.0") == 0, "nrt_init failed"
cores = c_uint32()
assert nrt.nrt_get_visible_nc_count(byref(cores)) == 0
model = c_void_p()
assert nrt.nrt_load(neff, len(neff), 0, 1, byref(model)) == 0, "nrt_load failed"
inp, out, iset, oset = c_void_p(), c_void_p(), c_void_p(), c_void_p()
assert nrt.nrt_tensor_allocate(0, 0, 4 * n, b"input", byref(inp)) == 0
assert nrt.nrt_tensor_allocate(0, 0, 4 * n, b"output", byref(out)) == 0
assert nrt.nrt_allocate_tensor_set(byref(iset)) == 0 and nrt.nrt_allocate_tensor_set(byref(oset)) == 0
assert nrt.nrt_add_tensor_to_tensor_set(iset, b"input", inp) == 0
assert nrt.nrt_add_tensor_to_tensor_set(oset, b"output", out) == 0
good = True
spans = []
for r in range(runs):
    data = (c_float * n)(*[float(i + r) for i in range(n)])
    assert nrt.nrt_tensor_write(inp, data, 0, 4 * n) == 0
    t0 = time.monotonic_ns()
    status = nrt.nrt_execute(model, iset, oset)
    spans.append(time.monotonic_ns() - t0)
    assert status == 0, "nrt_execute failed"
    res = (c_float * n)()
    assert nrt.nrt_tensor_read(out, res, 0, 4 * n) == 0
    good = good and all(abs(res[i] - (i + r + add)) < 1e-3 for i in range(n))
nrt.nrt_tensor_free(byref(inp))
nrt.nrt_tensor_free(byref(out))
nrt.nrt_destroy_tensor_set(byref(iset))
nrt.nrt_destroy_tensor_set(byref(oset))
assert nrt.nrt_unload(model) == 0
nrt.nrt_close()
if sys.argv[4:] == ["timed"]:
    print("spans_ns=" + ",".join(str(s) for s in spans))
print("cores=%d executions=%d ok=%d" % (cores.value, runs, good))
sys.exit(0 if good else 1)
