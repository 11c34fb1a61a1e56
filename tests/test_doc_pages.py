"""The documents a reader follows: a short README that points to a guide per reader, every relative link and
#anchor resolving, and docs/reference/commands.md what the parsers print."""

from __future__ import annotations

import difflib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from conftest import ROOT

README = ROOT / "README.md"
COMMANDS = ROOT / "docs" / "reference" / "commands.md"
GUIDES = ("docs/director.md", "docs/organiser.md", "docs/builder.md", "docs/developer.md")
LINK = re.compile(r"\]\(([^)\s]+)\)|\bsrc=\"([^\"]+)\"")


def commands_doc() -> ModuleType:
    spec = importlib.util.spec_from_file_location("commands_doc_tool", ROOT / "tools" / "commands_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pages() -> list[Path]:
    """Every page a reader may follow a link from."""
    return [README, *sorted((ROOT / "docs").rglob("*.md")), *sorted((ROOT / "hardware").rglob("*.md"))]


def prose(text: str) -> str:
    """The text outside fenced code blocks (where a `](x)` is code, not a link)."""
    return "\n".join(part for i, part in enumerate(re.split(r"^```.*$", text, flags=re.M)) if i % 2 == 0)


def anchors(page: Path) -> set[str]:
    """The #anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces to hyphens,
    a repeated one numbered."""
    seen: dict[str, int] = {}
    made = set()
    for heading in re.findall(r"^#+ (.+)$", prose(page.read_text(encoding="utf-8")), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        made.add(f"{slug}-{seen[slug]}" if slug in seen else slug)
        seen[slug] = seen.get(slug, 0) + 1
    return made


def broken_links(page: Path) -> list[str]:
    broken = []
    for match in LINK.finditer(prose(page.read_text(encoding="utf-8"))):
        target = match.group(1) or match.group(2)
        if re.match(r"[a-z]+:", target):  # https:, mailto:: not ours to check, and no network in tests
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.exists():
            broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    return broken


def test_every_relative_link_and_anchor_resolves() -> None:
    assert len(pages()) >= 12
    broken = [line for page in pages() for line in broken_links(page)]
    assert not broken, "\n".join(broken)


def test_a_broken_link_or_anchor_is_found(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    (tmp_path / "b.md").write_text("# The `tenace` command: 2 ways\n\n## Again\n\n## Again\n", encoding="utf-8")
    page = tmp_path / "a.md"
    page.write_text("[ok](b.md#the-tenace-command-2-ways) [ok](b.md#again-1) [ok](#a) <img src=\"b.md\">\n# A\n"
                    "[gone](c.md) [gone](b.md#again-2) <img src=\"c.png\">\n```\n[code](d.md)\n```\n",
                    encoding="utf-8")
    assert broken_links(page) == ["a.md: c.md (no such file)", "a.md: b.md#again-2 (no such heading)",
                                  "a.md: c.png (no such file)"]


def test_the_readme_is_short_and_starts_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    head = "\n".join(lines[:40])
    assert "./tools/run-session" in head and "./tools/run-tests" in head
    assert "accepted=219 stored=219 lost=0 doubled=0" in head  # what the session prints at its end


def test_the_readme_sends_each_reader_to_a_guide_and_the_reference() -> None:
    readme = README.read_text(encoding="utf-8")
    for page in (*GUIDES, "docs/reference/commands.md", "docs/reference/score.md", "docs/reference/wire.md"):
        assert f"({page})" in readme, page
        assert (ROOT / page).is_file(), page


def test_the_commands_page_is_what_the_parsers_print() -> None:
    page = COMMANDS.read_text(encoding="utf-8") if COMMANDS.is_file() else ""
    made = commands_doc().commands_markdown()
    if page != made:
        diff = "\n".join(list(difflib.unified_diff(page.splitlines(), made.splitlines(), "docs/reference/commands.md",
                                                   "the parsers", lineterm=""))[:40])
        pytest.fail(f"docs/reference/commands.md is stale: run .venv/bin/python tools/commands_doc.py\n{diff}",
                    pytrace=False)
    for command in ("## `tenace`\n", "## `tenace score`\n", "## `tenace hub serve`\n", "## `tenace movement swiss`\n"):
        assert command in page, command


def test_the_commands_tool_writes_the_page_and_its_check_says_when_it_is_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tool = commands_doc()
    page = tmp_path / "commands.md"
    monkeypatch.setattr(tool, "PAGE", page)
    monkeypatch.setenv("COLUMNS", "40")  # the page is the same whatever the terminal's width
    assert tool.main(["--check"]) == 1  # no page yet
    assert tool.main([]) == 0 and page.read_text(encoding="utf-8") == COMMANDS.read_text(encoding="utf-8")
    assert tool.main(["--check"]) == 0
    page.write_text(page.read_text(encoding="utf-8").replace("--preset", "--presets"), encoding="utf-8")
    assert tool.main(["--check"]) == 1
    assert f"{page} is stale: run .venv/bin/python tools/commands_doc.py" in capsys.readouterr().err
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "commands_doc.py"), "--check"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
