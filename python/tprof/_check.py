# _check.py — the argument checks that both bindings (_recorded.py, _noop.py) make, so that a
# wrong argument raises as Python users expect, whether or not anything is recorded.
import operator


def step_number(n):
    """n as a step number (an int from 0 to 2**64 - 1, or anything with __index__, such as a
    NumPy integer); TypeError for anything else (None, "1", 1.5), ValueError out of range."""
    if n.__class__ is not int:
        try:
            n = operator.index(n)
        except TypeError:
            raise TypeError("tprof.step() takes an integer step number, not %s"
                            % type(n).__name__) from None
    if not 0 <= n < 1 << 64:
        raise ValueError("tprof.step(%d): a step number is from 0 to 2**64 - 1" % n)
    return n


def counter_value(v):
    """v as a counter's value (a float: an int, a float, or anything with __float__, such as a
    NumPy number or a one-element tensor); TypeError for None, strings and the like."""
    if v.__class__ is float:
        return v
    if v is None or isinstance(v, (str, bytes, bytearray)):
        raise TypeError("tprof.counter() takes a number as its value, not %s" % type(v).__name__)
    try:
        return float(v)
    except TypeError:
        raise TypeError("tprof.counter() takes a number as its value, not %s"
                        % type(v).__name__) from None
