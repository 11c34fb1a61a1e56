#!/usr/bin/env python3
"""Writes docs/schema.md, the event file's current schema, from the migrations (tenace.store.schema_doc)."""

from __future__ import annotations

import sys
from pathlib import Path

from generated_page import write_or_check

from tenace.store.schema_doc import schema_markdown

PAGE = Path(__file__).resolve().parents[1] / "docs" / "schema.md"


def main(argv: list[str] | None = None) -> int:
    return write_or_check(argv, PAGE, schema_markdown, __doc__ or "", "the migrations", "schema_doc.py")


if __name__ == "__main__":
    sys.exit(main())
