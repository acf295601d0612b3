# nccl-ctypes.py — drives NCCL from Python through ctypes, the way Python bindings do:
# dlopen of libnccl.so.2 (and of the HIP runtime for streams and memory), then dlsym of each
# function in the library's own handle.  One process, a communicator of one rank: its unique
# id (passed by value, 128 bytes), an all-reduce and a broadcast on a stream of its own, a
# group of two all-reduces, the results checked, the communicator destroyed.
import ctypes
import struct
import sys

nccl = ctypes.CDLL("libnccl.so.2")
hip = ctypes.CDLL("libamdhip64.so.5")


class UniqueId(ctypes.Structure):
    _fields_ = [("internal", ctypes.c_char * 128)]


def ck(what, rc):
    if rc != 0:
        sys.exit("%s failed: %d" % (what, rc))


version = ctypes.c_int(0)
ck("ncclGetVersion", nccl.ncclGetVersion(ctypes.byref(version)))
uid = UniqueId()
ck("ncclGetUniqueId", nccl.ncclGetUniqueId(ctypes.byref(uid)))
comm = ctypes.c_void_p()
ck("ncclCommInitRank", nccl.ncclCommInitRank(ctypes.byref(comm), 1, uid, 0))
stream = ctypes.c_void_p()
ck("hipStreamCreate", hip.hipStreamCreate(ctypes.byref(stream)))
n = 4096
host = (ctypes.c_float * n)(*[float(i % 9) for i in range(n)])
dev = ctypes.c_void_p()
ck("hipMalloc", hip.hipMalloc(ctypes.byref(dev), ctypes.c_size_t(4 * n)))
ck("hipMemcpy", hip.hipMemcpy(dev, host, ctypes.c_size_t(4 * n), 1))
FLOAT32, SUM = 7, 0
ck("ncclAllReduce", nccl.ncclAllReduce(dev, dev, ctypes.c_size_t(n), FLOAT32, SUM, comm, stream))
ck("ncclBroadcast", nccl.ncclBroadcast(dev, dev, ctypes.c_size_t(n), FLOAT32, 0, comm, stream))
ck("ncclGroupStart", nccl.ncclGroupStart())
ck("ncclAllReduce", nccl.ncclAllReduce(dev, dev, ctypes.c_size_t(n // 2), FLOAT32, SUM, comm, stream))
ck("ncclAllReduce", nccl.ncclAllReduce(dev, dev, ctypes.c_size_t(n // 4), FLOAT32, SUM, comm, stream))
ck("ncclGroupEnd", nccl.ncclGroupEnd())
ck("hipStreamSynchronize", hip.hipStreamSynchronize(stream))
back = (ctypes.c_float * n)()
ck("hipMemcpy", hip.hipMemcpy(back, dev, ctypes.c_size_t(4 * n), 2))
if list(back) != list(host):
    sys.exit("a one-rank all-reduce changed the data")
ck("ncclCommDestroy", nccl.ncclCommDestroy(comm))
ck("hipFree", hip.hipFree(dev))
print("version=%d reduced=%d" % (version.value, n))
