"""MicroPython's `micropython` module on CPython, where the host runs the firmware's packages: only what they use.

Installed as a top-level module beside tenace, from host/: never on a MicroPython path (the firmware build takes
firmware/ only), where the built-in module is the real one.
"""


from typing import TypeVar

Const_T = TypeVar("Const_T")  # the stubs constrain it to int, float, str, bytes or a tuple; here its exact type


def const(value: Const_T, /) -> Const_T:
    """A compile-time constant to mpy-cross (an int, or a str, bytes or tuple under a name with a leading underscore,
    as the firmware's tables are); on CPython the value itself."""
    return value
