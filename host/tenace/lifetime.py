"""Child processes that end with their parent, however the parent ends (SIGKILL included)."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time

_PR_SET_PDEATHSIG = 1  # linux/prctl.h
_WATCH_S = 1.0


def die_with_parent() -> None:
    """In the child before exec (subprocess's preexec_fn): the kernel SIGKILLs it when its parent dies, even by
    SIGKILL, so that nothing is left running under init (Linux only; elsewhere end_with_parent's watch)."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def end_with_parent(parent: int) -> None:
    """In a child started by process `parent`: end now if it is already gone (it died before die_with_parent took
    hold), and at once should it go later (a watch on the parent's id, where there is no parent-death signal)."""
    if os.getppid() != parent:
        os._exit(0)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(_WATCH_S)
        os._exit(0)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()
