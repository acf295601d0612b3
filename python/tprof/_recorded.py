# _recorded.py — the tprof API bound to the recorder's C functions (found by _native.py).
# Each call is one ctypes call with its types declared once; names are encoded to UTF-8 once
# and kept (a bounded cache), and range() hands out one object per name, reused, so that a
# `with` costs the lookup and the two calls.
import functools

from ._check import counter_value, step_number

_CACHE_MAX = 4096         # names kept encoded; any further name is encoded at each call


def _encode(name):
    if name.__class__ is bytes:
        return name
    return str(name).encode("utf-8", "backslashreplace")


def bind(fns):
    """The API (range, mark, step, counter, step_end, start, stop) calling fns: push, pop,
    mark, step, counter, step_end, start, stop."""
    push, pop, c_mark, c_step, c_counter, c_step_end, c_start, c_stop = fns
    names = {}
    ranges = {}

    def encoded(name):
        """name as UTF-8, kept for next time when it is a str or bytes (the callers look in
        names first; 1 and True would find each other's)."""
        b = _encode(name)
        if name.__class__ in (str, bytes) and len(names) < _CACHE_MAX:
            names[name] = b
        return b

    class _Range:
        """A range on the calling thread's timeline: a context manager (the range is open
        inside the `with`, closed on the way out, exception or not), or a decorator."""
        __slots__ = ("name", "_b")

        def __init__(self, name, b):
            self.name = name
            self._b = b

        def __enter__(self):
            if self._b is None:
                raise TypeError("tprof.range() needs a name when used with 'with'")
            push(self._b)
            return self

        def __exit__(self, exc_type, exc, tb):
            pop()
            return None

        def __call__(self, fn):
            if isinstance(fn, type) or not callable(fn):
                raise TypeError("tprof.range decorates functions, not %s" % type(fn).__name__)
            b = self._b
            if b is None:
                b = _encode(getattr(fn, "__qualname__", None) or getattr(fn, "__name__", "?"))

            @functools.wraps(fn)
            def timed(*args, **kwargs):
                push(b)
                try:
                    return fn(*args, **kwargs)
                finally:
                    pop()
            return timed

        def __repr__(self):
            return "<tprof.range %r>" % (self.name,)

    unnamed = _Range(None, None)

    def range(name=None):
        try:
            return ranges[name]
        except KeyError:
            pass
        except TypeError:
            return _Range(name, _encode(name))
        if name is None:
            return unnamed
        if callable(name) and name.__class__ is not str:
            return unnamed(name)
        r = _Range(name, names.get(name) or encoded(name))
        if name.__class__ in (str, bytes) and len(ranges) < _CACHE_MAX:
            ranges[name] = r
        return r

    def mark(name):
        try:
            b = names[name]
        except (KeyError, TypeError):
            b = encoded(name)
        c_mark(b)

    def step(n):
        if n.__class__ is int and 0 <= n < 1 << 64:
            c_step(n)
        else:
            c_step(step_number(n))

    def step_end():
        c_step_end()

    def counter(name, value):
        try:
            b = names[name]
        except (KeyError, TypeError):
            b = encoded(name)
        if value.__class__ is float:
            c_counter(b, value)
        else:
            c_counter(b, counter_value(value))

    def start():
        c_start()

    def stop():
        c_stop()

    return range, mark, step, counter, step_end, start, stop
