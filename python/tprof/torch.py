# torch.py — tprof.torch.profile: PyTorch's profiler, with its steps on tprof's timeline and its
# trace written where tprof-analyze finds it.  Imported on first use of tprof.torch, never by
# `import tprof`.
"""PyTorch's profiler, lined up with tprof.

    import tprof.torch

    with tprof.torch.profile() as prof:       # any torch.profiler.profile argument
        for batch in loader:
            train_step(batch)
            prof.step()

profile starts torch.profiler.profile (as a context manager, or with start() and stop()).
Step n begins, at the same moment, as PyTorch's "ProfilerStep#n" and as tprof.step(n): step
0 at the start, n + 1 at each step(), so tprof-analyze matches PyTorch's steps to the
profile's.  When PyTorch's trace is ready (at the end, or after each cycle of a schedule),
it is written as <host>.<pid>.pt.trace.json (<host>.<pid>.<k>.pt.trace.json for the k-th
trace of a process, k >= 2) into the profile directory when the recorder is active
(TPROF_OUTPUT_DIR), else into the directory given (default: the current one).  Like the
recorder's profiles it is private: created new (never through a link), 0600, or 0640 with
TPROF_GROUP_READABLE=1.

The file is PyTorch's Chrome trace in one JSON object: "tprof" (host, pid, tid, source,
torch, and for PyTorch's own writer base_us and threads) and "traceEvents", each event as
PyTorch wrote it.  PyTorch's own writer (a PyTorch built without Kineto, such as Debian's)
gives every host event the pid "CPU functions" and a thread number of its own: these events
get the process id, and as tid the native thread id of the thread that drove the profiler
(the one that called start and step) for that thread's events, and minus PyTorch's number
for any other thread (such as PyTorch's inter-op pool), whose native id PyTorch does not
give.  Kineto writes process and thread ids itself; its events are kept as they are.
"""
import os
import socket
import sys
import tempfile
import threading

import torch
import torch.profiler
from torch.autograd.profiler import record_function

import tprof
from . import _chrome

__all__ = ["profile"]

STEP_PREFIX = "ProfilerStep#"
LEGACY_PID = "CPU functions"     # the pid of every host event of PyTorch's own writer


class profile:
    """torch.profiler.profile(**kwargs), its steps numbered and timed as tprof's.

    dir: where the trace goes when the recorder is not active (default: the current
    directory).  on_trace_ready, if given, is called after the file is written.  Call
    start(), step() and stop() from one thread.  Attributes: profiler (PyTorch's
    profiler), step_num (the current step) and paths (the files written)."""

    def __init__(self, dir=None, *, on_trace_ready=None, **kwargs):
        self._dir = dir
        self._user_ready = on_trace_ready
        self.profiler = torch.profiler.profile(on_trace_ready=self._ready, **kwargs)
        # PyTorch marks steps itself only with a schedule, and in 1.13 numbers its first two
        # steps 0; this class marks every step, numbered as tprof's.
        self.profiler.record_steps = False
        self.step_num = 0
        self.paths = []
        self._marker = None
        self._tid = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.stop()
        return None

    def start(self):
        self._tid = threading.get_native_id()
        self.profiler.start()
        self._begin(0)

    def step(self):
        """Step step_num + 1 starts now, for PyTorch and for tprof."""
        self._end()
        self.profiler.step()
        self.step_num += 1
        self._begin(self.step_num)

    def stop(self):
        """PyTorch's last ProfilerStep#N and tprof's last step end now; the profiler stops."""
        self._end()
        tprof.step_end()
        self.profiler.stop()

    def _begin(self, n):
        """Step n begins for PyTorch, then for tprof: a thread's first tprof call sets the
        thread up after taking its timestamp, which would put PyTorch's start late."""
        marker = record_function(STEP_PREFIX + str(n))
        marker.__enter__()
        tprof.step(n)
        self._marker = marker

    def _end(self):
        if self._marker is not None:
            self._marker.__exit__(None, None, None)
            self._marker = None

    def _ready(self, prof):
        path = self._write(prof)
        if path:
            self.paths.append(path)
        if self._user_ready:
            self._user_ready(prof)

    def _directory(self):
        if tprof.enabled():
            return tprof._output_dir
        return os.path.abspath(self._dir or ".")

    def _write(self, prof):
        """Exports PyTorch's trace and rewrites it under its final name; None (and one line
        on stderr) when that fails: the program goes on."""
        tmp = final = None
        try:
            directory = self._directory()
            os.makedirs(directory, mode=_chrome.private_mode(True), exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".pt-export.", suffix=".json", dir=directory)
            os.close(fd)
            prof.export_chrome_trace(tmp)
            threads = self._threads(prof)
            final = _reserve(directory)
            _chrome.rewrite(tmp, final + ".part", self._meta(prof, tmp, threads),
                            _fixer(threads))
            os.replace(final + ".part", final)
            os.unlink(tmp)
            return final
        except Exception as e:              # the program goes on, whatever failed
            for p in (final and final + ".part", final):
                if p and os.path.exists(p):
                    os.unlink(p)
            kept = "; PyTorch's own trace is in %s" % tmp if tmp and os.path.exists(tmp) else ""
            print("tprof.torch: cannot write the trace: %s%s" % (e, kept), file=sys.stderr)
            return None

    def _meta(self, prof, tmp, threads):
        meta = {"host": socket.gethostname(), "pid": os.getpid(), "tid": self._tid,
                "source": "torch.profiler", "torch": torch.__version__}
        if _chrome.form(tmp) == "array":
            base = _trace_start_us(prof)
            if base is not None:
                meta["base_us"] = base
            meta["threads"] = {str(k): v for k, v in sorted(threads.items())}
        return meta

    def _threads(self, prof):
        """PyTorch's thread number -> the tid written: the driving thread's native tid for
        the thread that ran the step markers, minus the number for any other."""
        out = {}
        for e in prof.events() or ():
            t = e.thread
            if isinstance(t, int) and t not in out:
                out[t] = -t
            name = getattr(e, "trace_name", None) or e.name
            if isinstance(t, int) and name.startswith(STEP_PREFIX):
                out[t] = self._tid
        return out


def _fixer(threads):
    """The rewrite of one event: the host events of PyTorch's own writer get the process id
    and the tid that threads gives for their thread."""
    pid = os.getpid()

    def fix(event):
        if event.get("pid") == LEGACY_PID:
            event["pid"] = pid
            t = event.get("tid")
            if isinstance(t, int):
                event["tid"] = threads.get(t, -t)
        return event
    return fix


def _trace_start_us(prof):
    """The realtime microsecond (CLOCK_REALTIME) of ts 0 in PyTorch's own writer's trace:
    its profiler's trace_start_us(), None when this PyTorch does not say."""
    try:
        return int(prof.profiler.kineto_results.trace_start_us())
    except (AttributeError, TypeError, RuntimeError):
        return None


def _host():
    return socket.gethostname().replace("/", "_")


def _reserve(directory):
    """Creates, empty, the first free name of <host>.<pid>[.<k>].pt.trace.json."""
    stem = os.path.join(directory, "%s.%d" % (_host(), os.getpid()))
    k = 1
    while True:
        path = "%s.pt.trace.json" % stem if k == 1 else "%s.%d.pt.trace.json" % (stem, k)
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY | os.O_NOFOLLOW,
                             _chrome.private_mode()))
            return path
        except FileExistsError:
            k += 1
