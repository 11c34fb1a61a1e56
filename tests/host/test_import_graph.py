"""The rooms of the house and the rooms each may import: no import runs up a layer, and no modules import in a circle.

A room is a package or module directly under tenace/. ROOMS lists, room by room from the floor up, the rooms it may
import (directly: a room reaches the rest through them). Simulation stands beside production: the hub, the collector
and the store never import it; the commands do (`tenace sim`, the hub's demo cluster), and so does the console, whose
rehearsal plays simulated terminals."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

HOST = Path(__file__).resolve().parents[2] / "host" / "tenace"

# The package's version, one line for the user (the details in a crash report), children that end with their parent:
# anyone may use them.
FLOOR = ("__init__", "errors", "crash_report", "lifetime")
ROOMS: dict[str, tuple[str, ...]] = {
    "__init__": (),
    "errors": (),
    "lifetime": (),
    "crash_report": (),
    "firmware_build": (),
    "club_key": (),
    "page_base": (),  # what every HTML page stands on: its words in five languages, its skeleton and style
    "scoring": (),  # the rules of scoring: beneath everything that scores
    "protocol": ("scoring",),  # what crosses between the club and the hub: the push wire format, a post's checks
    "movement": ("scoring",),
    "pbn": ("scoring",),
    "usebio": ("scoring",),
    "store": ("scoring", "movement", "protocol"),
    "roster": ("store",),
    "seeding": ("store",),
    "teams_file": ("store",),
    "bws": ("store", "movement"),
    "deals": ("store", "pbn"),
    "reports": ("store", "scoring", "movement", "pbn", "usebio", "roster"),
    "director": ("store", "movement", "roster"),
    "collector": ("store", "scoring", "reports", "protocol", "club_key"),
    "flashing": ("firmware_build", "club_key"),
    "hub": ("protocol", "scoring", "pbn", "usebio", "reports", "page_base"),
    "simulation": ("collector", "hub", "deals", "reports", "store", "movement", "scoring", "protocol",
                   "firmware_build"),
    "web": ("collector", "director", "deals", "reports", "store", "usebio", "movement", "protocol", "firmware_build",
            "simulation", "roster", "page_base"),
    "commands": ("web", "hub", "simulation", "collector", "director", "flashing", "reports", "deals", "bws", "store",
                 "roster", "seeding", "teams_file", "movement", "pbn", "usebio", "scoring", "protocol", "club_key",
                 "firmware_build", "page_base"),
    "cli": ("commands",),
    "__main__": ("cli",),
}


def module_of(path: Path) -> str:
    parts = path.relative_to(HOST.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def imports_of(path: Path, here: str, modules: set[str]) -> list[tuple[int, str]]:
    """Every tenace module the file of module `here` imports, anywhere in it (a lazy import in a function counts),
    with its line, in the file's order: `from P import name` is P.name when that is a module, else P."""
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            for a in node.names:
                found.append((node.lineno, f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base))
    return sorted({(line, m) for line, m in found if m == "tenace" or m.startswith("tenace.")})


def graph() -> tuple[dict[str, list[tuple[int, str]]], dict[str, Path]]:
    files = {module_of(f): f for f in sorted(HOST.rglob("*.py")) if "boards" not in f.relative_to(HOST).parts}
    modules = set(files)
    return {m: imports_of(f, m, modules) for m, f in files.items()}, files


def up_the_layers(edges: dict[str, list[tuple[int, str]]], files: dict[str, Path],
                  rooms: dict[str, tuple[str, ...]]) -> list[str]:
    """Each import of a room the importer's room may not import, as `file:line: a -> b`."""
    wrong = []
    for module, imported in edges.items():
        mine = room_of(module)
        for line, other in imported:
            theirs = room_of(other)
            if theirs != mine and theirs not in rooms.get(mine, ()) + FLOOR:
                wrong.append(f"{files[module].relative_to(HOST)}:{line}: {mine} may not import {other}")
    return wrong


def circles(edges: dict[str, Iterable[str]]) -> list[list[str]]:
    """The modules importing one another in a circle (strongly connected components of more than one module, or one
    importing itself), each sorted (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(edges.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1 or node in edges.get(node, ()):
                    found.append(sorted(component))
    return found


def test_every_room_is_in_the_table() -> None:
    edges, _ = graph()
    assert {room_of(m) for m in edges} == set(ROOMS)


def test_the_table_itself_has_no_circle() -> None:
    assert circles({room: set(allowed) for room, allowed in ROOMS.items()}) == []


def test_no_import_runs_up_a_layer() -> None:
    edges, files = graph()
    assert up_the_layers(edges, files, ROOMS) == []


def test_no_modules_import_in_a_circle() -> None:
    edges, files = graph()
    package_of = {m for m, f in files.items() if f.name == "__init__.py"}
    # a package's __init__ gathering its modules, which import the package for one another's names, is no circle
    # that matters: the package is read first
    plain = {m: {o for _, o in imported if not (o in package_of and m.startswith(o + "."))}
             for m, imported in edges.items()}
    found = circles(plain)
    closing = [f"{files[m].relative_to(HOST)}:{line}: {m} -> {o}" for c in found for m in c
               for line, o in edges[m] if o in c]
    assert closing == []


def test_the_checks_see_a_wrong_import_and_a_circle() -> None:
    edges = {"tenace.store.outbox": [(3, "tenace.hub.wire")], "tenace.hub.wire": [(5, "tenace.scoring.codec")]}
    files = {"tenace.store.outbox": HOST / "store" / "outbox.py", "tenace.hub.wire": HOST / "hub" / "wire.py"}
    assert up_the_layers(edges, files, {"store": ("scoring",), "hub": ("scoring",)}) == [
        "store/outbox.py:3: store may not import tenace.hub.wire"]
    assert circles({"a": ["b"], "b": ["c", "a"], "c": [], "d": ["d"]}) == [["a", "b"], ["d"]]


def test_the_walk_sees_every_way_of_importing(tmp_path: Path) -> None:
    source = tmp_path / "probe.py"
    source.write_text("import tenace.commands.adjust\nfrom tenace.web import render\nfrom tenace import errors\n"
                      "def f():\n    from tenace.simulation.clubs import leaders\nfrom . import field\n")
    modules = {"tenace.web.render", "tenace.errors", "tenace.hub.field"}
    assert imports_of(source, "tenace.hub.probe", modules) == [
        (1, "tenace.commands.adjust"), (2, "tenace.web.render"), (3, "tenace.errors"), (5, "tenace.simulation.clubs"),
        (6, "tenace.hub.field")]
