# _noop.py — the tprof API when nothing records: every call does nothing, in pure Python (no
# call into C).  range() gives one shared object, and as a decorator leaves the function as it
# is, so a decorated function costs nothing at all.  Misuse raises as it does when recorded.
from ._check import counter_value, step_number


class _Range:
    """A range that records nothing: a context manager, or a decorator that returns the
    function itself."""
    __slots__ = ("_named",)

    def __init__(self, named):
        self._named = named

    def __enter__(self):
        if not self._named:
            raise TypeError("tprof.range() needs a name when used with 'with'")
        return self

    def __exit__(self, exc_type, exc, tb):
        return None

    def __call__(self, fn):
        if isinstance(fn, type) or not callable(fn):
            raise TypeError("tprof.range decorates functions, not %s" % type(fn).__name__)
        return fn

    def __repr__(self):
        return "<tprof.range (not recording)>"


_NAMED = _Range(True)
_UNNAMED = _Range(False)


def range(name=None):
    if name.__class__ is str:
        return _NAMED
    if name is None:
        return _UNNAMED
    if callable(name):
        return _UNNAMED(name)
    return _NAMED


def mark(name):
    pass


def step(n):
    if n.__class__ is not int or not 0 <= n < 1 << 64:
        step_number(n)


def step_end():
    pass


def start():
    pass


def stop():
    pass


def counter(name, value):
    if value.__class__ is not float:
        counter_value(value)
