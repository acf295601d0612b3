# hip-capture.py — the program's capture range through the HIP runtime and roctx, as a
# program run under `tprof-inspect --capture-range api` uses them (t-capture.sh): a copy
# before hipProfilerStart (not recorded), a slow asynchronous copy launched inside and still
# running at hipProfilerStop (kept whole), a synchronisation and a copy after (not recorded);
# then roctxProfilerResume and roctxProfilerPause, as rocprofiler-sdk's roctx library gives
# them (found in the process's global scope), around one hipGetDeviceCount.
import ctypes
import sys

hip = ctypes.CDLL("libamdhip64.so.5")
n = 1 << 20
dev = ctypes.c_void_p()
assert hip.hipSetDevice(0) == 0
assert hip.hipMalloc(ctypes.byref(dev), ctypes.c_size_t(n)) == 0
src = ctypes.create_string_buffer(b"x" * n, n)
assert hip.hipMemcpy(dev, src, ctypes.c_size_t(n), 1) == 0           # outside
assert hip.hipProfilerStart() == 0
assert hip.hipMemcpyAsync(dev, src, ctypes.c_size_t(n), 1, None) == 0  # inside, ends outside
assert hip.hipProfilerStop() == 0
assert hip.hipDeviceSynchronize() == 0                                  # outside
assert hip.hipMemcpy(dev, src, ctypes.c_size_t(n), 1) == 0             # outside
glob = ctypes.CDLL(None)
glob.roctxProfilerResume.argtypes = glob.roctxProfilerPause.argtypes = [ctypes.c_uint64]
assert glob.roctxProfilerResume(0) == 0
count = ctypes.c_int(0)
assert hip.hipGetDeviceCount(ctypes.byref(count)) == 0                 # inside
assert glob.roctxProfilerPause(0) == 0
assert hip.hipFree(dev) == 0                                            # outside
print("ok")
sys.exit(0)
