"""The QR codes of the console's prints: each pair's scorecard, and the table card of a pair that stays at its table,
carry its debrief page's address; decoded from the PDF's pixels (Debian's pdftoppm and zbarimg), each opens that
pair's page. The address is the one the print page is given (the players' phones reach), or the server's."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from test_console_publish import client_for, logged_in, played

from tenace.movement import howell, mitchell

pytestmark = pytest.mark.slow  # chromium prints the PDFs


def decoded(pdf: bytes, folder: Path) -> list[list[str]]:
    """Each sheet's QR codes, as zbarimg reads them from the sheet rendered at 150 dpi."""
    for tool in ("chromium", "pdftoppm", "zbarimg"):
        if shutil.which(tool) is None:
            if os.environ.get("CI"):
                pytest.fail(f"{tool} is not installed (tools/setup-env installs it)")
            pytest.skip(f"{tool} is not installed: tools/setup-env installs it as root")
    (folder / "print.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-gray", "-r", "150", str(folder / "print.pdf"), str(folder / "sheet")], check=True)
    sheets = []
    for image in sorted(folder.glob("sheet*.pgm")):
        found = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", str(image)],
                               capture_output=True, text=True)
        assert found.returncode in (0, 4), found.stderr  # 4: no code on this sheet
        sheets.append(found.stdout.split())
    return sheets


def test_each_scorecards_qr_code_opens_its_pairs_page(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(4, 2))
    with client_for(event) as client:
        logged_in(client)
        pdf = client.get("/director/print/scorecards.pdf")
        assert pdf.status_code == 200, pdf.text[:300]
        sheets = decoded(pdf.content, tmp_path)
        # One sheet a pair (NS 1-4, then EW 1-4), its own code on it, at the server's address by default.
        want = [[f"http://testserver/pair/A/{d}{n}"] for d in ("NS", "EW") for n in range(1, 5)]
        assert sheets == want
        for (url,) in sheets:
            page = client.get(url)
            slug = url.rsplit("/", 1)[1]
            assert page.status_code == 200 and f"Scorecard of {slug[:2]} {slug[2:]}" in page.text, url
            boards = page.text.count('<h2><a href="/board/A/')
            assert boards >= 6 and page.text.count('<tr class="mine">') == boards  # its line marked on each board


def test_the_address_given_and_a_mitchell_table_card(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(3, 2))
    with client_for(event) as client:
        logged_in(client)
        menu = client.get("/director/print").text
        assert 'name="base" type="url" size="40" value="http://testserver"' in menu
        pdf = client.get("/director/print/cards.pdf", params={"base": "http://192.168.1.20:8000/"})
        assert pdf.status_code == 200, pdf.text[:300]
        # A Mitchell's North-South pair stays at its table: its card carries its page.
        assert decoded(pdf.content, tmp_path) == [[f"http://192.168.1.20:8000/pair/A/NS{n}"] for n in range(1, 4)]
        bad = client.get("/director/print/scorecards", params={"base": "ftp://club"})
        assert bad.status_code == 400
        assert "the public address &#39;ftp://club&#39; is not an http:// or https:// address" in bad.text


def test_a_howell_card_has_the_code_of_its_stationary_pair_only(tmp_path: Path) -> None:
    event = played(tmp_path / "club.sqlite", howell(4, 2))
    with client_for(event) as client:
        logged_in(client)
        cards = client.get("/director/print/cards").text
        scorecards = client.get("/director/print/scorecards").text
    # Pair 8 sits at table 1 all evening; the other tables see a new pair each round: no card is one pair's.
    assert cards.count('<div class="qr">') == 1 and "<title>http://testserver/pair/A/8</title>" in cards
    assert cards.index("<title>http://testserver/pair/A/8</title>") < cards.index("Section A · Table 2")
    assert scorecards.count('<div class="qr">') == 8 and "<title>http://testserver/pair/A/6</title>" in scorecards
