"""Assertion helpers that work the same under pytest and the MicroPython unix port (no pytest there)."""


def raises(exc_type, fn, *args):
    """Call fn(*args), insist it raises exc_type, and return the exception's message."""
    try:
        fn(*args)
    except exc_type as e:
        return str(e)
    raise AssertionError("%s%r did not raise %s" % (getattr(fn, "__name__", fn), args, exc_type.__name__))


def no_mismatches(mismatches, total):
    """Fail listing the first mismatches out of `total` checked cases."""
    if mismatches:
        raise AssertionError("%d of %d cases wrong, first: %r" % (len(mismatches), total, mismatches[:5]))
