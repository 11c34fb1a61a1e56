"""The console's prints as PDFs on A4 and on Letter, read back with Debian's poppler-utils: every column's header
lies on the sheet (pdftotext's word boxes), no sheet shows a scrollbar (pdftoppm's pixels), the Law 90 penalty is on
the printed ranking, and the event's title is printed once."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from contextlib import closing
from fractions import Fraction
from html import unescape
from pathlib import Path

import pytest
from test_console_publish import client_for, logged_in, played

from tenace.movement import mitchell
from tenace.store import connect
from tenace.store.director import add_penalty
from tenace.web.console.printing import PAPERS, PRINTS

pytestmark = pytest.mark.slow  # chromium prints eight PDFs

# A sheet's width in PostScript points (1/72 in), as pdftotext gives its page boxes.
WIDTH = {"a4": 595.3, "letter": 612.0}
DPI = 100  # the scrollbar check's rendering: a scrollbar's track is some 15 px tall there, a border 1 px


@pytest.fixture(scope="module")
def prints(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], tuple[str, bytes]]:
    """Each print on each paper: its HTML page and its PDF, of a 7-table Mitchell with NS 3 penalised 1.5 MP."""
    for tool in ("chromium", "pdftotext", "pdftoppm"):
        if shutil.which(tool) is None:
            if os.environ.get("CI"):
                pytest.fail(f"{tool} is not installed (tools/setup-env installs it)")
            pytest.skip(f"{tool} is not installed: tools/setup-env installs it as root")
    event = played(tmp_path_factory.mktemp("print") / "club.sqlite", mitchell(7, 2))
    with closing(connect(event)) as conn:
        add_penalty(conn, "A", 3, "NS", Fraction(3, 2), "MP", who="TD Ana", why="slow play")
    out = {}
    with client_for(event) as client:
        logged_in(client)
        for what in PRINTS:
            for paper in PAPERS:
                page = client.get(f"/director/print/{what}", params={"paper": paper})
                pdf = client.get(f"/director/print/{what}.pdf", params={"paper": paper})
                assert page.status_code == 200 and pdf.status_code == 200, (what, paper, pdf.text[:300])
                out[what, paper] = (page.text, pdf.content)
    return out


def headers(page: str) -> set[str]:
    """The words of every column header of the print's tables."""
    cells = re.findall(r'<th scope="col">([^<]*)</th>', page)
    assert cells, "the print has no column headers"
    return {word for cell in cells for word in unescape(cell).split()}


def word_boxes(pdf: bytes, tmp_path: Path) -> list[tuple[float, list[tuple[str, float, float]]]]:
    """Each page's width and its words with their left and right edges, in points (pdftotext -bbox)."""
    source = tmp_path / "print.pdf"
    source.write_bytes(pdf)
    text = subprocess.run(["pdftotext", "-bbox", str(source), "-"], capture_output=True, text=True,
                          check=True).stdout
    pages = []
    for width, body in re.findall(r'<page width="([\d.]+)"[^>]*>(.*?)</page>', text, re.S):
        words = [(unescape(w), float(x0), float(x1))
                 for x0, x1, w in re.findall(r'<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">'
                                             r"([^<]*)</word>", body)]
        pages.append((float(width), words))
    return pages


def scrollbar_rows(pdf: bytes, tmp_path: Path) -> int:
    """The longest band of consecutive pixel rows on the first sheet in which over a third of the row is grey: a
    scrollbar (its thumb and track are grey, a table's border black; text never fills a third of a row with grey)."""
    source = tmp_path / "print.pdf"
    source.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-gray", "-r", str(DPI), "-f", "1", "-l", "1", str(source), str(tmp_path / "sheet")],
                   check=True)
    (image,) = tmp_path.glob("sheet*.pgm")
    data = image.read_bytes()
    found = re.match(rb"P5\s+(\d+)\s+(\d+)\s+255\s", data)
    assert found, "pdftoppm -gray writes a binary PGM"
    width, height = int(found[1]), int(found[2])
    pixels = data[found.end():]
    longest = band = 0
    for y in range(height):
        row = pixels[y * width:(y + 1) * width]
        grey = sum(1 for value in row if 60 <= value <= 245)
        band = band + 1 if grey > width / 3 else 0
        longest = max(longest, band)
    return longest


@pytest.mark.parametrize("paper", list(PAPERS))
@pytest.mark.parametrize("what", list(PRINTS))
def test_every_column_header_is_on_the_sheet_and_nothing_scrolls(
        prints: dict[tuple[str, str], tuple[str, bytes]], tmp_path: Path, what: str, paper: str) -> None:
    page, pdf = prints[what, paper]
    wanted = headers(page)
    sheets = word_boxes(pdf, tmp_path)
    assert sheets, "the PDF has no pages"
    for width, words in sheets:
        assert abs(width - WIDTH[paper]) < 1, f"{what} on {paper}: a sheet {width} pt wide"
        outside = [w for w, x0, x1 in words if x0 < 0 or x1 > width]
        assert not outside, f"{what} on {paper}: cut at the sheet's edge: {outside[:5]}"
    first = {w for w, _, _ in sheets[0][1]}
    assert wanted <= first, f"{what} on {paper}: headers not on the first sheet: {sorted(wanted - first)}"
    assert scrollbar_rows(pdf, tmp_path) < 5, f"{what} on {paper}: a scrollbar is printed"


def test_the_printed_ranking_has_the_penalty_and_the_title_once(
        prints: dict[tuple[str, str], tuple[str, bytes]]) -> None:
    page, _ = prints["ranking", "a4"]
    body = page.split("<body>", 1)[1]
    assert body.count("Club") == 1 and "<h1>Club · 2024-05-14</h1>" in body, "the event's name is printed once"
    assert '<th scope="col">Penalty</th>' in page
    row = re.search(r'<th scope="row">NS 3</th>.*?</tr>', page, re.S)
    assert row and "penalty -1.50 MP" in row[0], row
    assert "98 of 98 results in" in page


def test_a_pairs_public_scorecard_shows_its_penalty(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(4, 2))
    with closing(connect(event)) as conn:
        add_penalty(conn, "A", 3, "NS", Fraction(3, 2), "MP", who="TD Ana", why="slow play")
    with client_for(event) as client:
        penalised, other = client.get("/pair/A/NS3").text, client.get("/pair/A/NS2").text
    place = re.search(r'<p class="place">.*?</p>', penalised, re.S)
    assert place and '<span class="penalty">penalty -1.50 MP</span>' in place[0], place
    assert 'class="penalty"' not in other
