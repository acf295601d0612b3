# _native.py — finds the recorder's annotation functions for the tprof module.
#
# The recorder, libtrace_preload.so, is preloaded (tprof-inspect, or LD_PRELOAD with
# TPROF_ENABLE=1), so its tprof_range_push and the others are in the process's global scope.
# A lookup in libtprof.so's own handle (ctypes.CDLL("libtprof.so.0").tprof_mark) would find
# libtprof's empty definitions instead: the module looks in the global scope (dlopen(NULL))
# alone, and when what it finds there is not the recorder, it binds pure-Python no-ops, which
# cost less than any call into C.
import ctypes
import os

NAMES = ("tprof_range_push", "tprof_range_pop", "tprof_mark", "tprof_step", "tprof_counter",
         "tprof_step_end", "tprof_start", "tprof_stop")


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def library_of(fn):
    """The file that defines the ctypes function fn (dladdr), or None when it cannot say."""
    try:
        dladdr = ctypes.CDLL(None).dladdr
    except (OSError, AttributeError):
        return None
    dladdr.argtypes = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)]
    dladdr.restype = ctypes.c_int
    info = _DlInfo()
    if not dladdr(ctypes.cast(fn, ctypes.c_void_p), ctypes.byref(info)) or not info.dli_fname:
        return None
    return os.fsdecode(info.dli_fname)


def _declare(lib):
    c = ctypes
    types = {"tprof_range_push": ([c.c_char_p], c.c_int), "tprof_range_pop": ([], c.c_int),
             "tprof_mark": ([c.c_char_p], None), "tprof_step": ([c.c_uint64], None),
             "tprof_counter": ([c.c_char_p, c.c_double], None), "tprof_step_end": ([], None),
             "tprof_start": ([], None), "tprof_stop": ([], None)}
    out = []
    for name in NAMES:
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = types[name]
        out.append(fn)
    return tuple(out)


def load():
    """The recorder's functions (push, pop, mark, step, counter, step_end, start, stop) with
    their types
    declared, or None: no recorder loaded, or only libtprof.so.

    PyDLL: the calls keep the GIL, as they never block (a timestamp and a store), and
    releasing and taking it back would cost more than the call itself."""
    try:
        lib = ctypes.PyDLL(None)
        fns = _declare(lib)
    except (OSError, AttributeError):
        return None
    where = library_of(fns[0])
    if where and os.path.basename(where).startswith("libtprof.so"):
        return None
    return fns


def output_dir():
    """The profile directory as the recorder resolves it: TPROF_OUTPUT_DIR, by default
    tprof-out, relative to the current directory."""
    return os.path.abspath(os.environ.get("TPROF_OUTPUT_DIR") or "tprof-out")
