"""Why the collector could not use a port, as the reasons of its refusals to start (errors.Refused), and why it stopped
by itself: keys of the console's words (lr_REASON) with their values."""

from __future__ import annotations

import errno
import socket
import sqlite3

from tenace.errors import Refused


def port_reason(e: BaseException) -> str:
    """Why a serial port would not open, by the system's error number: not there, held by another program, not
    allowed, or else (said as pyserial says it)."""
    code = getattr(e, "errno", None)
    if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO):
        return "port_missing"
    if code in (errno.EBUSY, errno.EAGAIN, errno.EWOULDBLOCK):  # EAGAIN: its exclusive lock held elsewhere
        return "port_busy"
    if code in (errno.EACCES, errno.EPERM):
        return "port_denied"
    return "port_failed"


def listen_reason(e: OSError) -> str:
    """Why a TCP port could not be listened on: in use, not this computer's address, not allowed, or else."""
    if e.errno == errno.EADDRINUSE:
        return "tcp_busy"
    if e.errno == errno.EADDRNOTAVAIL or isinstance(e, socket.gaierror):
        return "tcp_elsewhere"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "tcp_denied"
    return "tcp_failed"


def stop_reason(e: BaseException | None) -> tuple[str, dict[str, str]]:
    """Why a collector that had started stopped by itself: a refusal's own reason, the event file that could not be
    written, or else what failed (said as the error says it, on one line)."""
    if isinstance(e, Refused):
        return e.reason, e.values
    if e is None:  # it ended without an error: nothing more to say than that it stopped
        return "failed", {"error": "?"}
    error = (str(e).splitlines() or [""])[0] or type(e).__name__
    if isinstance(e, sqlite3.Error):
        return "store_failed", {"error": error}
    return "failed", {"error": error}
