# hip-ctypes.py — drives the HIP runtime from Python through ctypes, the way Python bindings
# do: dlopen of libamdhip64.so.5, then dlsym of each function in the library's own handle.
import ctypes
import sys

hip = ctypes.CDLL("libamdhip64.so.5")
count = ctypes.c_int(0)
assert hip.hipGetDeviceCount(ctypes.byref(count)) == 0, "hipGetDeviceCount failed"
assert hip.hipSetDevice(count.value - 1) == 0, "hipSetDevice failed"
n = 1 << 20
dev = ctypes.c_void_p()
assert hip.hipMalloc(ctypes.byref(dev), ctypes.c_size_t(n)) == 0, "hipMalloc failed"
src = ctypes.create_string_buffer(b"x" * n, n)
dst = ctypes.create_string_buffer(n)
assert hip.hipMemcpy(dev, src, ctypes.c_size_t(n), 1) == 0, "hipMemcpy HtoD failed"
assert hip.hipMemcpy(dst, dev, ctypes.c_size_t(n), 2) == 0, "hipMemcpy DtoH failed"
assert dst.raw == src.raw, "the copies did not copy"
assert hip.hipDeviceSynchronize() == 0
assert hip.hipFree(dev) == 0
print("devices=%d copied=%d" % (count.value, 2 * n))
sys.exit(0)
