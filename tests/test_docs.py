"""The design lives in the repository: docs/schema.md is what the migrations make, docs/design.md holds every hard
rule the code cites and names only files that exist, and the README links both."""

from __future__ import annotations

import difflib
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tenace.store.schema_doc import normalised, schema_markdown

from conftest import ROOT

DESIGN = ROOT / "docs" / "design.md"
SCHEMA = ROOT / "docs" / "schema.md"
STALE = "docs/schema.md is stale: run .venv/bin/python tools/schema_doc.py"
# Where the code, the tests and the documents cite a rule: "hard rule 2", "Hard rule 3:", "DESIGN hard rule 6".
CITATION = re.compile(r"\bhard rules? (\d+)", re.IGNORECASE)


def test_the_schema_page_is_what_the_migrations_make() -> None:
    page = SCHEMA.read_text(encoding="utf-8") if SCHEMA.is_file() else ""
    made = schema_markdown()
    if page != made:
        diff = "\n".join(list(difflib.unified_diff(page.splitlines(), made.splitlines(), "docs/schema.md",
                                                   "the migrations", lineterm=""))[:40])
        pytest.fail(f"{STALE}\n{diff}", pytrace=False)
    assert "## result\n" in page and "CREATE TABLE result (" in page


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("schema_doc_tool", ROOT / "tools" / "schema_doc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tool_writes_the_page_and_its_check_says_when_it_is_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    schema_doc = tool()
    page = tmp_path / "schema.md"
    monkeypatch.setattr(schema_doc, "PAGE", page)
    assert schema_doc.main(["--check"]) == 1  # no page yet
    assert schema_doc.main([]) == 0 and page.read_text(encoding="utf-8") == schema_markdown()
    assert schema_doc.main(["--check"]) == 0
    page.write_text(page.read_text(encoding="utf-8").replace("CREATE TABLE result (", "CREATE TABLE result (\n"),
                    encoding="utf-8")
    assert schema_doc.main(["--check"]) == 1
    assert f"{page} is stale: run .venv/bin/python tools/schema_doc.py" in capsys.readouterr().err
    # The repository's own page, checked as a user would.
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "schema_doc.py"), "--check"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_the_schema_is_laid_out_the_same_whatever_the_migrations_did_to_its_text() -> None:
    # A renamed table's quoted name, a comment, a column ALTER TABLE appended on the line of another, and quoted
    # text holding what looks like a comment, a comma and a parenthesis.
    sql = ('CREATE TABLE "t" (\n  a INTEGER PRIMARY KEY, -- the key\n  b TEXT CHECK (b IN (\'x, y\', \'--(z\')),'
           " c TEXT DEFAULT 'q'\n)")
    assert normalised("table", sql) == ("CREATE TABLE t (\n    a INTEGER PRIMARY KEY,\n"
                                        "    b TEXT CHECK (b IN ('x, y', '--(z')),\n    c TEXT DEFAULT 'q'\n)")
    assert normalised("trigger", "CREATE TRIGGER t_u BEFORE UPDATE ON t\nBEGIN SELECT RAISE(ABORT, 'no; never');"
                                 "  END") == ("CREATE TRIGGER t_u BEFORE UPDATE ON t\nBEGIN\n"
                                              "    SELECT RAISE(ABORT, 'no; never');\nEND")
    assert normalised("index", "CREATE  INDEX i ON t( a ,\n b )") == "CREATE INDEX i ON t(a, b)"


def cited_rules() -> dict[int, list[str]]:
    """Each hard rule's number, with the files citing it."""
    cited: dict[int, list[str]] = {}
    for folder in ("host", "firmware", "hardware", "tests", "tools"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix not in (".py", ".md") or not path.is_file() or path == Path(__file__):
                continue
            for number in CITATION.findall(path.read_text(encoding="utf-8", errors="replace")):
                cited.setdefault(int(number), []).append(str(path.relative_to(ROOT)))
    return cited


def design_rules() -> dict[int, str]:
    """The rules of docs/design.md's "Hard rules" section by number, each with its bold title."""
    section = DESIGN.read_text(encoding="utf-8").split("\n## Hard rules\n", 1)[1].split("\n## ", 1)[0]
    return {int(n): title for n, title in re.findall(r"^(\d+)\. \*\*(.+?)\*\*", section, re.MULTILINE)}


def test_every_hard_rule_the_code_cites_is_on_the_design_page() -> None:
    cited = cited_rules()
    rules = design_rules()
    assert {1, 2, 3, 6} <= set(cited), cited  # the journal, exactly once, the wire, injected hardware
    assert sorted(rules) == list(range(1, len(rules) + 1)), rules
    missing = {n: files for n, files in cited.items() if n not in rules}
    assert not missing, f"hard rules cited but not in docs/design.md: {missing}"
    assert rules[2] == "Exactly once at the host." and rules[3] == "Never trust the wire."


def test_every_file_the_design_page_names_exists() -> None:
    text = DESIGN.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:firmware|host|hardware|tests|tools|docs)/[^`\s]*)`", text))
    assert len(named) > 40
    gone = sorted(p for p in named if not (ROOT / p).exists())
    assert not gone, f"docs/design.md names files that are not there: {gone}"
    for link in re.findall(r"\]\(([^)#]+)\)", text):
        assert (DESIGN.parent / link).exists(), link


def test_the_readme_links_the_design_and_the_schema() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/design.md)" in readme and "(docs/schema.md)" in readme
