"""The rooms of the house: the pages, the collector and the director's actions import nothing from the commands."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

HOST = Path(__file__).resolve().parents[2] / "host" / "tenace"
ROOMS = ("web", "collector", "director")


def is_commands(module: str) -> bool:
    return module == "tenace.commands" or module.startswith("tenace.commands.")


def commands_imported(path: Path) -> list[str]:
    """The imports of tenace.commands (or of its modules) in the file, as written."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if is_commands(a.name)]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
            if is_commands(node.module):
                found.append(node.module)
            elif node.module == "tenace" and any(a.name == "commands" for a in node.names):
                found.append("from tenace import commands")
    return found


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_imports_nothing_from_the_commands(room: str) -> None:
    files = sorted((HOST / room).rglob("*.py"))
    assert files, room
    wrong = {str(f.relative_to(HOST)): found for f in files if (found := commands_imported(f))}
    assert wrong == {}


def test_the_check_sees_every_way_of_importing_a_command(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text("import tenace.commands.adjust\nfrom tenace.commands import adjust\nfrom tenace import commands\n"
                      "from tenace.commands.director_options import flag\nimport tenace.director\n")
    assert commands_imported(source) == ["tenace.commands.adjust", "tenace.commands", "from tenace import commands",
                                         "tenace.commands.director_options"]
