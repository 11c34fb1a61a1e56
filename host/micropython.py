"""MicroPython's `micropython` module on CPython, where the host runs the firmware's packages: only what they use.

Installed as a top-level module beside tenace, from host/: never on a MicroPython path (the firmware build takes
firmware/ only), where the built-in module is the real one.
"""


def const(value: int, /) -> int:
    """A compile-time constant to mpy-cross; on CPython the value itself."""
    return value
