"""A fault of ours (an unexpected exception): its traceback saved to a file, one line for the user."""

from __future__ import annotations

import os
import tempfile
import time
import traceback
from pathlib import Path

from tenace import __version__


def write(command: str, error: BaseException, folder: Path | None = None) -> str:
    """Save the traceback of `error` and return the one line to show: what failed and where the details are."""
    folder = folder or Path(tempfile.gettempdir())
    path = folder / f"tenace-{command}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
    summary = f"{type(error).__name__}: {error}".splitlines()[0] if str(error) else type(error).__name__
    try:
        path.write_text(f"tenace {__version__} {command}\n" + "".join(traceback.format_exception(error)),
                        encoding="utf-8")
    except OSError:  # nowhere to write: the line alone must do
        return f"internal error ({summary}); please report it with the command line that caused it"
    return f"internal error ({summary}); please report it with {path}"
