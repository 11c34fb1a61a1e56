"""The --usebio OUT writer of `tenace score`: the file as read, with every computed element's text recomputed.

The bytes are rewritten in place rather than the tree serialised again: the XML declaration, the DOCTYPE, the
layout, comments and every element that is not computed stay exactly as read. The computed elements are the
traveller lines' points (NS_/EW_MATCH_POINTS, _BUTLER_POINTS, _CROSS_IMP_POINTS), a Butler board's
BOARD_AVERAGE, and each pair's TOTAL_SCORE, PERCENTAGE and PLACE; one the file does not have is not added.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.parsers import expat

from tenace.usebio.reader import POINTS, UsebioError, pair_key, parse_tree


@dataclass
class UsebioFigures:
    """Every computed element of the file as rescored, as text: what `rewrite` puts back."""

    lines: dict[tuple[int, int], tuple[str, str]] = field(default_factory=dict)  # (board, line 0-based): NS, EW
    totals: dict[str, str] = field(default_factory=dict)  # pair number -> TOTAL_SCORE
    percentages: dict[str, str] = field(default_factory=dict)  # pair number -> PERCENTAGE (matchpoints)
    places: dict[str, str] = field(default_factory=dict)  # pair number -> PLACE
    datums: dict[int, str] = field(default_factory=dict)  # board -> BOARD_AVERAGE (Butler)


@dataclass
class _Span:
    """Where an element's content lies in the bytes: from after its start tag to its end tag."""

    start: int  # the start tag's "<"
    end: int = -1  # the end tag's "<", or `start` for an empty element written <TAG/>
    text: str | None = None  # what it becomes, once known


@dataclass
class _Where:
    """Where the walk through the document is: the pair, board and traveller line being read."""

    pair: str = ""
    direction: str | None = None
    board: int = 0
    line: int = -1
    text: str = ""  # the character data of the element being read
    section: str = ""  # the SECTION_ID of the SECTION being read


def rewrite(data: bytes, method: str, figures: UsebioFigures, section: str | None = None) -> bytes:
    """`data` (a USEBIO file as read) with the computed elements of `method` set from `figures`: those of its
    SECTION `section` only, where it has sections (the one scored)."""
    parse_tree(data)  # refuses what the reader refuses (entities, size) before this parser sees it
    points = POINTS[method]
    line_tags = {f"NS_{points}": 0, f"EW_{points}": 1}
    pair_tags = {"TOTAL_SCORE": figures.totals, "PERCENTAGE": figures.percentages, "PLACE": figures.places}
    spans: list[_Span] = []
    stack: list[str] = []
    open_spans: list[_Span | None] = []
    pair_spans: list[tuple[str, _Span]] = []  # (tag, span) of the current PAIR, named once its number is read
    state = _Where()
    board_spans: list[_Span] = []  # BOARD_AVERAGE of the current BOARD, set once its number is read
    parser = expat.ParserCreate()

    def start(tag: str, attributes: dict[str, str]) -> None:
        parent = stack[-1] if stack else ""
        stack.append(tag)
        state.text = ""
        span: _Span | None = None
        if tag == "SECTION" and parent == "EVENT":
            state.section = attributes.get("SECTION_ID", "")
        scored = section is None or state.section.upper() == section.upper()
        if scored and ((parent == "TRAVELLER_LINE" and tag in line_tags) or (parent == "PAIR" and tag in pair_tags)
                       or (parent == "BOARD" and tag == "BOARD_AVERAGE")):
            span = _Span(parser.CurrentByteIndex)
            spans.append(span)
        if tag == "PAIR":
            state.pair, state.direction = "", None
            pair_spans.clear()
        elif tag == "BOARD" and parent in ("EVENT", "SECTION"):
            state.board, state.line = 0, -1
            board_spans.clear()
        elif tag == "TRAVELLER_LINE":
            state.line += 1
        open_spans.append(span)

    def end(tag: str) -> None:
        stack.pop()
        span = open_spans.pop()
        parent = stack[-1] if stack else ""
        text = state.text.strip()
        if span is not None:
            span.end = parser.CurrentByteIndex
            if tag in line_tags:
                got = figures.lines.get((state.board, state.line))
                span.text = got[line_tags[tag]] if got else None
            elif tag == "BOARD_AVERAGE":
                board_spans.append(span)
            else:
                pair_spans.append((tag, span))
        if parent == "PAIR" and tag == "PAIR_NUMBER":
            state.pair = text
        elif parent == "PAIR" and tag == "DIRECTION":
            state.direction = text.upper() or None
        elif parent == "BOARD" and tag == "BOARD_NUMBER" and text.isdigit():
            state.board = int(text)
        if tag == "PAIR":
            key = pair_key(state.pair, state.direction)  # as the reader knows the pair
            for pair_tag, pair_span in pair_spans:
                pair_span.text = pair_tags[pair_tag].get(key)
        elif tag == "BOARD" and parent in ("EVENT", "SECTION"):
            for board_span in board_spans:
                board_span.text = figures.datums.get(state.board)

    def data_(chunk: str) -> None:
        state.text += chunk

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data_
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as e:  # parse_tree has read it: this cannot happen, but no traceback if it does
        raise UsebioError(f"not well-formed XML: {expat.ErrorString(e.code)} at line {e.lineno}") from None
    out = bytearray(data)
    for span in sorted(spans, key=lambda s: s.start, reverse=True):  # from the end: earlier offsets stay valid
        if span.text is None:
            continue
        value = span.text.encode("ascii")
        if span.end == span.start:  # <TAG/>: written out with its content
            close = out.index(b">", span.start)
            tag = out[span.start + 1:close].rstrip(b"/ \t\r\n")
            out[span.start:close + 1] = b"<" + tag + b">" + value + b"</" + tag + b">"
        else:
            content = out.index(b">", span.start) + 1
            out[content:span.end] = value
    return bytes(out)
