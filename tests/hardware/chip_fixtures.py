"""What the emulated RP2040's tests share: the rule that skips them where ../shared lacks the rp2 image (not in CI)."""

from __future__ import annotations

import os

import pytest
from chip import rp2_problem

from conftest import in_ci


def need_rp2() -> None:
    """Skip the calling test, with one line, where the rp2 image or rp2040js is absent; in CI, fail it."""
    problem = rp2_problem()
    if problem is None:
        return
    if in_ci(os.environ):
        pytest.fail(f"CI=true and {problem}: the emulated RP2040's tests may not be skipped in CI")
    pytest.skip(f"{problem} (put the shared folder beside the project to run the emulated RP2040's tests)")
