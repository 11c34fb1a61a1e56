"""Faults of ours (an unexpected exception, a child process that failed): details saved to a file, one line shown."""

from __future__ import annotations

import os
import tempfile
import time
import traceback
from pathlib import Path

from tenace import __version__


def save(name: str, text: str, folder: Path | None = None) -> Path | None:
    """`text` in a new file named after `name` in the temporary folder; None when it cannot be written."""
    path = (folder or Path(tempfile.gettempdir())) / f"tenace-{name}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
    try:
        path.write_text(f"tenace {__version__}\n{text}", encoding="utf-8")
    except OSError:
        return None
    return path


def write(command: str, error: BaseException, folder: Path | None = None) -> str:
    """Save the traceback of `error` and return the one line to show: what failed and where the details are."""
    summary = f"{type(error).__name__}: {error}".splitlines()[0] if str(error) else type(error).__name__
    path = save(command, "".join(traceback.format_exception(error)), folder)
    if path is None:  # nowhere to write: the line alone must do
        return f"internal error ({summary}); please report it with the command line that caused it"
    return f"internal error ({summary}); please report it with {path}"
