"""Tenace and the bridge-scorer npm package agree on matchpoints and cross-IMPs (tools/bench_vs_bridge_scorer.py)."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH_PATH = Path(__file__).resolve().parents[2] / "tools" / "bench_vs_bridge_scorer.py"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed: bridge-scorer is JS")


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_vs_bridge_scorer", BENCH_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    module = load_bench()
    module.ensure_peer()  # npm ci --prefix tools/bench when node_modules is missing
    return module


def test_agreement_on_26_boards_of_20(bench: ModuleType) -> None:
    boards = bench.make_field(20, boards=26, seed=7)
    got = bench.agreement(boards)
    assert set(got) == {"matchpoints", "matchpoint_board", "crossImps"}
    for name, agree in got.items():
        assert agree.compared == 26 * 20, name
        assert agree.mismatches == 0, f"{name}: {agree.example}"


def test_agreement_with_ties_and_zero_scores(bench: ModuleType) -> None:
    """Passed-out boards (0) and heavy ties: the peer treats a 0 score apart, so check it on purpose."""
    boards = [[0, 0, 0, 50, -50, 0], [420, 420, 420, 420], [-100, 0, 100, 0, -100, 620, 1430, 0], [90, -1700]]
    got = bench.agreement(boards)
    for name, agree in got.items():
        assert agree.compared == sum(map(len, boards)), name
        assert agree.mismatches == 0, f"{name}: {agree.example}"
