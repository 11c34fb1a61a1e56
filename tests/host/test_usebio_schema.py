"""The USEBIO 1.2 schema (tenace/usebio/usebio-1.2.rng): every real file of ../shared/oracles/usebio passes it, a
copy broken in one place fails with a line naming where and what, and the schema is the package's own data."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_usebio_score import needs_usebio

from tenace.usebio.schema import UsebioSchemaError, check_file, parse, problems, schema_text

from conftest import ORACLES, needs_oracles

USEBIO = ORACLES / "usebio"
REAL = ("compscore3-mp_pairs_mitchell.xml", "compscore3-mp_pairs_mitchell_adjusted.xml",
        "compscore3-mp_pairs_mitchell_sitout.xml", "compscore3-butler_howell.xml", "compscore3-cross_imp_howell.xml",
        "compscore3-notsupported.xml")
ADJUSTED = USEBIO / "compscore3-mp_pairs_mitchell_adjusted.xml"


@needs_oracles
@needs_usebio
@pytest.mark.parametrize("name", REAL)
def test_every_real_usebio_file_passes_the_schema(name: str) -> None:
    path = USEBIO / name
    check_file(path)  # raises with the line otherwise
    assert problems(parse(path), name) == []


@needs_oracles
@needs_usebio
def test_the_real_files_are_all_there_is_to_check() -> None:
    # A seventh file added to the oracles is checked too, or this test says it is not.
    assert sorted(p.name for p in USEBIO.glob("*.xml")) == sorted(REAL)


# (what is changed in the adjusted Mitchell, the line the message names, what it says)
BROKEN = [
    ("<CONTRACT>4S</CONTRACT>", "<CONTRACT>8S</CONTRACT>", "CONTRACT '8S' is not valid there"),
    ("<CONTRACT>3NT</CONTRACT>", "<CONTRACT>3NTXXX</CONTRACT>", "CONTRACT '3NTXXX' is not valid there"),
    ("<TRICKS>7</TRICKS>", "<TRICKS>14</TRICKS>", "TRICKS '14' is not valid there"),
    ("<PLAYED_BY>N</PLAYED_BY>", "<PLAYED_BY>X</PLAYED_BY>", "PLAYED_BY"),
    ("<SCORE>A6060</SCORE>", "<SCORE>A60</SCORE>", "SCORE 'A60' is not valid there"),
    ("<SCORE>150</SCORE>", "<SCORE>155</SCORE>", "SCORE '155' is not valid there"),
    ("<PAIR_NUMBER>1NS</PAIR_NUMBER>", "<PAIR_NUMBER>1EW</PAIR_NUMBER>", "PAIR_NUMBER '1EW' is not valid there"),
    ("<NS_PAIR_NUMBER>9NS</NS_PAIR_NUMBER>", "<NS_PAIR_NUMBER>9EW</NS_PAIR_NUMBER>",
     "NS_PAIR_NUMBER '9EW' is not valid there"),
    ("<DATE>28/07/2022</DATE>", "<DATE>2022-07-28</DATE>", "DATE '2022-07-28' is not valid there"),
    ("<NS_MATCH_POINTS>24</NS_MATCH_POINTS>", "<NS_MATCH_POINTS>-24</NS_MATCH_POINTS>",
     "NS_MATCH_POINTS '-24' is not valid there"),
    ("<CLUBS>KQJ3</CLUBS>", "<CLUBS>QKJ3</CLUBS>", "CLUBS 'QKJ3' is not valid there"),
    ("<USEBIO Version=\"1.2\">", "<USEBIO Version=\"1.1\">", "Version"),
    ("    <BOARD_NUMBER>1</BOARD_NUMBER>\n    <HAND>", "    <HAND>", "HAND"),
    ("<EVENT_DESCRIPTION>EL Thu 1.00pm Open (28-Jul-22)</EVENT_DESCRIPTION>", "", "EVENT_DESCRIPTION"),
    ("<PERCENTAGE>44.91</PERCENTAGE>", "", "PERCENTAGE"),  # a matchpoint pair without its percentage
]


@needs_oracles
@needs_usebio
@pytest.mark.parametrize(("old", "new", "said"), BROKEN, ids=[b[2].split()[0] + "-" + b[1][:12] for b in BROKEN])
def test_a_copy_broken_in_one_place_fails_naming_its_line(tmp_path: Path, old: str, new: str, said: str) -> None:
    text = ADJUSTED.read_text(encoding="utf-8")
    where = text.index(old)
    line = text.count("\n", 0, where) + 1 + old[:old.find(new) if new and new in old else 0].count("\n")
    broken = tmp_path / "broken.xml"
    broken.write_text(text[:where] + new + text[where + len(old):], encoding="utf-8")
    with pytest.raises(UsebioSchemaError) as caught:
        check_file(broken)
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"{broken}:") and said in message, message
    shown = int(message.split(":")[1])
    assert abs(shown - line) <= 2, (shown, line, message)  # the line of the change (an element's, or the next)


def test_a_file_that_is_not_xml_is_one_line_with_its_line(tmp_path: Path) -> None:
    cut = tmp_path / "cut.xml"
    cut.write_text('<?xml version="1.0"?>\n<USEBIO Version="1.2">\n<CLUB>\n', encoding="utf-8")
    with pytest.raises(UsebioSchemaError, match=r"cut\.xml:4: not well-formed XML: ") as caught:
        check_file(cut)
    assert "\n" not in str(caught.value)
    with pytest.raises(UsebioSchemaError, match="cannot read it"):
        check_file(tmp_path / "none.xml")


def test_an_external_entity_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("Riga BC", encoding="utf-8")
    xxe = tmp_path / "xxe.xml"
    xxe.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE USEBIO [<!ENTITY s SYSTEM "file://{secret}">]>\n'
                   '<USEBIO Version="1.2"><CLUB><CLUB_NAME>&s;</CLUB_NAME></CLUB></USEBIO>\n', encoding="utf-8")
    tree = parse(xxe)
    assert "Riga BC" not in (tree.findtext("CLUB/CLUB_NAME") or "")
    with pytest.raises(UsebioSchemaError):
        check_file(xxe)


def test_the_schema_is_the_packages_data_and_says_where_each_rule_comes_from() -> None:
    text = schema_text().decode("utf-8")
    assert text.startswith("<?xml") and "http://relaxng.org/ns/structure/1.0" in text
    for source in ("[files]", "[s2u]", "[bridge]", "[tenace]"):
        assert source in text
    source_tree = Path(__file__).parents[2] / "host" / "tenace" / "usebio" / "usebio-1.2.rng"
    assert source_tree.read_text(encoding="utf-8") == text


@needs_oracles
@needs_usebio
def test_of_two_breaks_the_first_in_the_file_is_named(tmp_path: Path) -> None:
    text = ADJUSTED.read_text(encoding="utf-8")
    text = text.replace("<CLUBS>KQJ3</CLUBS>", "<CLUBS>KQJ3X</CLUBS>", 1)  # in the hand set, at the end
    where = text.index("<TRICKS>7</TRICKS>")
    broken = tmp_path / "twice.xml"
    broken.write_text(text[:where] + "<TRICKS>17</TRICKS>" + text[where + 18:], encoding="utf-8")
    with pytest.raises(UsebioSchemaError) as caught:
        check_file(broken)
    assert str(caught.value) == f"{broken}:{text.count(chr(10), 0, where) + 1}: TRICKS '17' is not valid there"
