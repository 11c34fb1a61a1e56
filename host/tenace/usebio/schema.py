"""A USEBIO 1.2 file checked against Tenace's RELAX NG schema of the format (usebio-1.2.rng, package data)."""

from __future__ import annotations

import copy
import logging
import re
from functools import cache
from importlib.resources import files
from pathlib import Path

from lxml import etree

log = logging.getLogger(__name__)

SCHEMA_NAME = "usebio-1.2.rng"



def _parser() -> etree.XMLParser:
    """The files name an external DTD (http://www.ebu.co.uk/usebio/usebio_v1_2.dtd): never fetched, no entities
    expanded."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


class UsebioSchemaError(ValueError):
    """A file that is not USEBIO 1.2 as the schema says: one line naming the file and the line."""


def schema_text() -> bytes:
    """The schema as shipped with the package."""
    return files("tenace.usebio").joinpath(SCHEMA_NAME).read_bytes()


RNG = "{http://relaxng.org/ns/structure/1.0}"
# The parts of a file each validated on its own when the whole fails (by the schema's define of the same name), in
# the file's order: libxml2 reports a broken value deep inside a choice poorly, or not at all, once it has
# backtracked out of it; within the one part that fails its errors are the telling ones.
_PARTS = (("club", "CLUB"), ("participants", "EVENT/PARTICIPANTS"), ("participants", "EVENT/SECTION/PARTICIPANTS"),
          ("board", "EVENT/BOARD"), ("board", "EVENT/SECTION/BOARD"), ("handset", "HANDSET"))


@cache
def _schema(start: str | None = None) -> etree.RelaxNG:
    """The schema, or (`start`) the same grammar starting at one of its defines."""
    grammar = etree.fromstring(schema_text(), _parser())
    if start is not None:
        begin = grammar.find(f"{RNG}start")
        assert begin is not None
        begin.clear()
        etree.SubElement(begin, f"{RNG}ref", name=start)
    return etree.RelaxNG(grammar)


def parse(source: Path | bytes, name: str | None = None) -> etree._ElementTree:
    """The file (or its bytes) as a tree; UsebioSchemaError, naming the line, when it is not well-formed XML."""
    label = name or (str(source) if isinstance(source, Path) else "<usebio>")
    try:
        data = source.read_bytes() if isinstance(source, Path) else source
    except OSError as e:
        raise UsebioSchemaError(f"{label}: cannot read it: {e.strerror or e}") from None
    try:
        return etree.ElementTree(etree.fromstring(data, _parser()))
    except etree.XMLSyntaxError as e:
        line = e.position[0] if e.position else "?"
        raise UsebioSchemaError(f"{label}:{line}: not well-formed XML: {e.msg}") from None


def problems(tree: etree._ElementTree, name: str = "<usebio>") -> list[str]:
    """Every rule the tree breaks, one line each ("club.xml:845: CONTRACT '8S' is not valid there"), the most telling
    first; [] when it is valid."""
    schema = _schema()
    if schema.validate(tree):
        return []
    errors = list(schema.error_log)
    found, within = errors, tree
    parts = sorted(((define, e) for define, path in _PARTS for e in tree.iterfind(path)),
                   key=lambda part: _line_of(part[1]))
    for define, element in parts:
        part = _alone(element)
        if not _schema(define).validate(part):
            found, within = list(_schema(define).error_log), part
            break
    chosen = _most_telling(found)
    first = f"{name}:{chosen.line}: {_message(within, chosen)}"
    rest = [f"{name}:{e.line}: {e.message}" for e in errors if e.line != chosen.line or e.message != chosen.message]
    return [first, *rest]


def _line_of(element: etree._Element) -> int:
    line = element.sourceline
    return line if isinstance(line, int) else 0


def _alone(element: etree._Element) -> etree._ElementTree:
    """A part of the file as a document of its own (its elements keep their lines)."""
    return etree.ElementTree(copy.deepcopy(element))


def check(tree: etree._ElementTree, name: str = "<usebio>") -> None:
    """UsebioSchemaError with the most telling problem when the tree is not USEBIO 1.2 as the schema says."""
    found = problems(tree, name)
    if found:
        log.debug("%s: %d schema errors:\n%s", name, len(found), "\n".join(found))
        raise UsebioSchemaError(found[0])


def check_file(path: Path) -> None:
    """UsebioSchemaError (one line, with the file and the line) unless the file is USEBIO 1.2 as the schema says."""
    check(parse(path), str(path))


_SUMMARY = re.compile(r"^Element (\S+) failed to validate content$")
_ATTRIBUTES = re.compile(r"^Element (\S+) failed to validate attributes$")


def _most_telling(errors: list[etree._LogEntry]) -> etree._LogEntry:
    """libxml2 reports the branches of every choice it tried: a value that fails its pattern is the most telling, then
    an element where it cannot be; the choices' own values (PASS, a direction) and the summaries of a whole element
    come last."""
    for wanted in ("RELAXNG_ERR_DATATYPE", ("RELAXNG_ERR_ELEMNAME", "RELAXNG_ERR_ELEMWRONG", "RELAXNG_ERR_EXTRACONTENT",
                                            "RELAXNG_ERR_NOELEM", "RELAXNG_ERR_ATTRVALID", "RELAXNG_ERR_INVALIDATTR",
                                            "RELAXNG_ERR_NOTELEM", "RELAXNG_ERR_ELEMEXTRANS")):
        for e in errors:
            if e.type_name in ((wanted,) if isinstance(wanted, str) else wanted):
                return e
    return next((e for e in errors if not _SUMMARY.match(e.message)), errors[0])


def _message(tree: etree._ElementTree, chosen: etree._LogEntry) -> str:
    """A value error as the element and its text ("CONTRACT '8S' is not valid there"), an attribute error with the
    attributes, else libxml2's words."""
    at_line = [el for el in tree.iter() if isinstance(el.tag, str) and el.sourceline == chosen.line]
    attributes = _ATTRIBUTES.match(chosen.message)
    if attributes:
        element = next((el for el in at_line if el.tag == attributes.group(1)), None)
        if element is not None:
            shown = " ".join(f'{k!s}="{v!s}"' for k, v in element.attrib.items())
            return f"{element.tag}'s attributes ({shown or 'none'}) are not valid there"
    if chosen.type_name == "RELAXNG_ERR_DATATYPE":
        leaves = [el for el in at_line if len(el) == 0]
        if len(leaves) == 1:
            return f"{leaves[0].tag} {leaves[0].text or ''!r} is not valid there"
    return str(chosen.message)
