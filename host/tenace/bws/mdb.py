"""Reading an Access (.bws/.mdb) file's tables through mdbtools (mdb-tables, mdb-export): rows as dicts of text."""

from __future__ import annotations

import csv
import logging
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

log = logging.getLogger(__name__)

Row = dict[str, str]
# The first bytes of an Access file: a Jet 3/4 ("Standard Jet DB") or ACE ("Standard ACE DB") page 0.
_MAGIC = (b"\x00\x01\x00\x00Standard Jet DB", b"\x00\x01\x00\x00Standard ACE DB")
# Dates as ISO text, booleans as 0/1 (mdb-export's default without -B), whatever the machine's locale.
_EXPORT_OPTIONS = ("-D", "%Y-%m-%d", "-T", "%Y-%m-%d %H:%M:%S")
_TIMEOUT = 60  # seconds for one table: a .bws of a whole evening is exported in well under one


class MdbError(Exception):
    """The file cannot be read as an Access database here: the reason, in one line."""


class Tables(Protocol):
    """What the reader needs of a .bws: its table names and each table's rows (column -> text, "" for NULL)."""

    def names(self) -> list[str]: ...

    def rows(self, table: str) -> list[Row]: ...


Runner = Callable[[list[str]], str]


def _run(command: list[str]) -> str:
    try:
        done = subprocess.run(command, capture_output=True, check=False, timeout=_TIMEOUT)
    except OSError as e:
        raise MdbError(f"cannot run {command[0]}: {e.strerror or e}") from None
    except subprocess.TimeoutExpired:
        raise MdbError(f"{command[0]} took more than {_TIMEOUT} s on {command[-1]}") from None
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise MdbError(f"{command[0]} failed on {command[-1]}: {why[-1] if why else f'exit {done.returncode}'}")
    return done.stdout.decode("utf-8", "replace")


class MdbFile:
    """An Access file read with Debian's mdbtools (mdb-tables to list the tables, mdb-export for CSV rows)."""

    def __init__(self, path: Path, run: Runner = _run) -> None:
        for tool in ("mdb-tables", "mdb-export"):
            if shutil.which(tool) is None:
                raise MdbError(f"{tool} is not installed (Debian's mdbtools: tools/setup-env installs it as root, "
                               "or: sudo apt-get install mdbtools)")
        try:
            with path.open("rb") as f:
                head = f.read(19)
        except OSError as e:
            raise MdbError(f"cannot read {path}: {e.strerror or e}") from None
        if not head.startswith(_MAGIC):
            raise MdbError(f"{path} is not an Access file (a .bws is a Microsoft Access database)")
        self.path = path
        self._run = run
        self._cache: dict[str, list[Row]] = {}

    def names(self) -> list[str]:
        return [line.strip() for line in self._run(["mdb-tables", "-1", str(self.path)]).splitlines() if line.strip()]

    def rows(self, table: str) -> list[Row]:
        if table not in self._cache:
            text = self._run(["mdb-export", *_EXPORT_OPTIONS, str(self.path), table])
            # csv, not split(","): quoted texts may hold commas, quotes doubled and line breaks.
            reader = csv.DictReader(text.splitlines(keepends=True))
            self._cache[table] = [{k: v or "" for k, v in row.items() if k is not None} for row in reader]
            log.debug("%s: %d rows of %s", self.path, len(self._cache[table]), table)
        return self._cache[table]
