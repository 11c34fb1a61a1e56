"""The wire package's modules import one another without a circle (type-checking imports included); the outcome
is declared once."""

from __future__ import annotations

import ast

from conftest import FIRMWARE

PACKAGE = "tenace_wire"


def imports_of(source: str) -> set[str]:
    """The tenace_wire modules a module's source imports, wherever the import statement is."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:  # from tenace_wire import slip
                found.update(f"{PACKAGE}.{a.name}" for a in node.names)
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(PACKAGE + "."))
    return found


def graph() -> dict[str, set[str]]:
    folder = FIRMWARE / PACKAGE
    modules = {f"{PACKAGE}.{p.stem}": p for p in folder.glob("*.py") if p.stem != "__init__"}
    return {name: imports_of(path.read_text(encoding="utf-8")) & modules.keys() for name, path in modules.items()}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle found by a depth-first walk, each as the path that closes it."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                walk(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(edges):
        if start not in state:
            walk(start, [start])
    return found


def test_the_wire_package_has_no_import_circle() -> None:
    edges = graph()
    assert "tenace_wire.outcome" in edges and edges["tenace_wire.director_messages"]
    assert circles(edges) == []


def test_the_outcome_is_what_both_message_modules_import() -> None:
    edges = graph()
    for module in ("tenace_wire.table_messages", "tenace_wire.director_messages"):
        assert "tenace_wire.outcome" in edges[module]
    assert "tenace_wire.table_messages" not in edges["tenace_wire.director_messages"]


def test_result_and_a_traveller_line_carry_the_one_outcome() -> None:
    from tenace_wire.director_messages import TravellerLine
    from tenace_wire.outcome import OUTCOME, OUTCOME_SPEC, Outcome
    from tenace_wire.table_messages import Result

    for cls in (Result, TravellerLine):
        start = cls.FIELDS.index("kind")
        assert issubclass(cls, Outcome) and cls.check is Outcome.check
        assert cls.FIELDS[start:start + len(OUTCOME)] == OUTCOME
        assert cls.SPEC[3 * start:3 * start + len(OUTCOME_SPEC)] == OUTCOME_SPEC


def test_a_circle_is_found() -> None:
    # The one this package had: table_messages named director_messages' TravellerLine for its type checks.
    planted = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(planted) == [["a", "b", "c", "a"]]
    assert imports_of("if TYPE_CHECKING:\n    from tenace_wire.director_messages import TravellerLine\n") == {
        "tenace_wire.director_messages"}
