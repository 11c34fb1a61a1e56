#!/usr/bin/env python3
"""Prints the size of every firmware package on flash (.mpy and message catalogues), from the one firmware build."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from tenace.firmware_build import build_firmware


def mpy_sizes() -> dict[str, dict[str, int]]:
    sizes: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        out = build_firmware(Path(tmp))
        for path in sorted(p for p in out.rglob("*") if p.is_file()):
            rel = path.relative_to(out)
            sizes.setdefault(rel.parts[0] if len(rel.parts) > 1 else ".", {})[str(rel)] = path.stat().st_size
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", action="store_true", help="also list every file")
    args = parser.parse_args()
    total = 0
    for package, files in mpy_sizes().items():
        size = sum(files.values())
        total += size
        print(f"{package:<20} {len(files):3d} files {size:7d} bytes")
        if args.files:
            for name, n in files.items():
                print(f"    {name:<40} {n:6d}")
    print(f"firmware total on flash: {total} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
