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

These are the C API of tprof.h (tprof_range_push/pop, tprof_mark, tprof_step,
tprof_counter), called through ctypes.  Under tprof-inspect, or with TPROF_ENABLE=1 and
LD_PRELOAD=libtrace_preload.so, the recorder defines those functions in the process's global
scope and the calls are recorded.  Otherwise (no recorder, or TPROF_ENABLE not true when the
module is first imported) every call is a pure-Python no-op, a decorator returns the function
itself, and enabled() is False.

Ranges belong to the thread that opens them, as `with` gives; an exception leaving a `with`
closes its range.  A range must not stay open across an `await` or a `yield` (another task
would nest inside it); a decorated generator or coroutine function is timed while it is
called (creating the generator), not while it runs.  Names may be any string (or bytes);
other values are converted with str().  tprof.torch (imported on first use, never by
`import tprof`) runs PyTorch's profiler with its steps on tprof's timeline.
"""
import os as _os

__all__ = ["range", "mark", "step", "counter", "enabled"]


def _requested():
    """Whether TPROF_ENABLE asks for recording, read as the recorder reads it."""
    v = _os.environ.get("TPROF_ENABLE", "")
    return v == "1" or v.lower() in ("yes", "true", "on")


_fns = None
if _requested():
    from . import _native
    _fns = _native.load()
if _fns is None:
    from ._noop import range, mark, step, counter
    _output_dir = None
else:
    from ._recorded import bind as _bind
    range, mark, step, counter = _bind(_fns)
    _output_dir = _native.output_dir()

range.__doc__ = """range(name) -> a range named name on the calling thread's timeline.

    with tprof.range("forward"): ...     the range is open inside the block
    @tprof.range("step")                 ... or while the decorated function runs
    @tprof.range / @tprof.range()        the same, named by the function's __qualname__

Ranges nest per thread.  The object for a name is cached and reused; it holds no state of
its own, so one may be used by several threads and nested in itself."""
mark.__doc__ = """mark(name): an instant event named name on the calling thread."""
step.__doc__ = """step(n): training step n starts now; it ends when the next step starts, or
at exit.  n is an integer from 0 to 2**64 - 1 (anything int() takes); other values are
ignored.  tprof-analyze --steps selects steps."""
counter.__doc__ = """counter(name, value): the counter name takes the number value from now
on (a float: anything float() takes; other values are ignored)."""


def enabled():
    """Whether the calls are recorded: a recorder is loaded and TPROF_ENABLE is true.  The
    recorder may still record nothing when it stepped aside (it says so on stderr)."""
    return _fns is not None


def __getattr__(name):
    if name == "torch":
        import importlib
        return importlib.import_module(".torch", __name__)
    raise AttributeError("module 'tprof' has no attribute %r" % (name,))
