"""tprof — annotations on the timeline of a program run under the tprof profiler.

    import tprof

    @tprof.range("train_step")          # or @tprof.range: the function's qualified name
    def train_step(batch): ...

    for n, batch in enumerate(loader):
        tprof.step(n)                   # training step n starts now
        with tprof.range("forward"):    # a range on this thread, nested in what is open
            loss = model(batch)
        tprof.counter("loss", loss)     # the counter "loss" takes this value from now on
        tprof.mark("checkpoint")        # an instant event
    tprof.step_end()                    # the last step ends here, not at exit
    tprof.stop(); tprof.start()         # recording pauses and resumes

These are the C API of tprof.h (tprof_range_push/pop, tprof_mark, tprof_step,
tprof_step_end, tprof_counter, tprof_start/stop), called through ctypes.  Under tprof-inspect, or with TPROF_ENABLE=1 and
LD_PRELOAD=libtrace_preload.so, the recorder defines those functions in the process's global
scope and the calls are recorded.  Otherwise (no recorder, or TPROF_ENABLE not true when the
module is first imported) every call is a pure-Python no-op, a decorator returns the function
itself, and enabled() is False; when TPROF_ENABLE asks for recording and no recorder is
loaded, importing the module says so once (a RuntimeWarning).  Arguments are checked either
way: step(None) or counter("x", None) raise TypeError, step(-1) ValueError.

Ranges belong to the thread that opens them, as `with` gives; an exception leaving a `with`
closes its range.  A range must not stay open across an `await` or a `yield` (another task
would nest inside it); a decorated generator or coroutine function is timed while it is
called (creating the generator), not while it runs.  Names may be any string (or bytes);
other values are converted with str().  tprof.torch (imported on first use, never by
`import tprof`) runs PyTorch's profiler with its steps on tprof's timeline.
"""
import os as _os

__all__ = ["range", "mark", "step", "step_end", "counter", "start", "stop", "enabled"]


def _requested():
    """Whether TPROF_ENABLE asks for recording, read as the recorder reads it."""
    v = _os.environ.get("TPROF_ENABLE", "")
    return v == "1" or v.lower() in ("yes", "true", "on")


_fns = None
if _requested():
    from . import _native
    _fns = _native.load()
    if _fns is None:
        import warnings as _warnings
        _warnings.warn("TPROF_ENABLE=%s asks for recording, but the recorder "
                       "(libtrace_preload.so) is not loaded in this process: nothing is "
                       "recorded (run it under tprof-inspect, or with LD_PRELOAD naming "
                       "libtrace_preload.so)" % _os.environ.get("TPROF_ENABLE"),
                       RuntimeWarning, stacklevel=2)
if _fns is None:
    from ._noop import range, mark, step, step_end, counter, start, stop
    _output_dir = None
else:
    from ._recorded import bind as _bind
    range, mark, step, counter, step_end, start, stop = _bind(_fns)
    _output_dir = _native.output_dir()

range.__doc__ = """range(name) -> a range named name on the calling thread's timeline.

    with tprof.range("forward"): ...     the range is open inside the block
    @tprof.range("step")                 ... or while the decorated function runs
    @tprof.range / @tprof.range()        the same, named by the function's __qualname__

Ranges nest per thread.  The object for a name is cached and reused; it holds no state of
its own, so one may be used by several threads and nested in itself."""
mark.__doc__ = """mark(name): an instant event named name on the calling thread."""
step.__doc__ = """step(n): training step n starts now; it ends when the next step starts, when
step_end() is called, or at exit.  n is an integer from 0 to 2**64 - 1 (an int, or anything
with __index__); TypeError for another type (None, "1", 1.5), ValueError out of range.
tprof-analyze --steps selects steps."""
step_end.__doc__ = """step_end(): the step this process is in ends now, and no other starts
(after the last step of a loop, so that what follows is not counted in it)."""
start.__doc__ = """start(): recording of this process resumes (tprof_start).  Under
tprof-inspect --capture-range api the process starts paused and records only between start()
and stop()."""
stop.__doc__ = """stop(): recording of this process pauses (tprof_stop): calls cost what they
cost without the profiler until start(); device work and ranges begun before are kept whole."""
counter.__doc__ = """counter(name, value): the counter name takes the number value from now
on (a float: an int, a float, or anything with __float__); TypeError for None, a string or
another non-number."""


def enabled():
    """Whether the calls are recorded: a recorder is loaded and TPROF_ENABLE is true.  The
    recorder may still record nothing when it stepped aside (it says so on stderr)."""
    return _fns is not None


def __getattr__(name):
    if name == "torch":
        import importlib
        return importlib.import_module(".torch", __name__)
    raise AttributeError("module 'tprof' has no attribute %r" % (name,))
