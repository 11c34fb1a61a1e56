"""A pair's debrief page as a QR code (segno, inline SVG) for its printed scorecard and table card."""

from __future__ import annotations

from urllib.parse import urlsplit

import segno
from markupsafe import Markup

from tenace.errors import UsageError
from tenace.web.render import Links


def public_base(text: str) -> str:
    """The public pages' address as a player's phone reaches it ("http://192.168.1.20:8000"), without a trailing
    slash; UsageError in one line for one that is not an http(s) address."""
    base = text.strip().rstrip("/")
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc or not base.isprintable() or " " in base \
            or parts.query or parts.fragment:
        raise UsageError(f"the public address {text!r} is not an http:// or https:// address such as "
                         "http://192.168.1.20:8000")
    return base


def debrief_url(base: str, section: str, slug: str) -> str:
    """The served page of a pair (its debrief), by the pair's part of the address ("NS3", "7")."""
    return Links(root=f"{base}/").pair_at(section, slug)


def qr_svg(url: str) -> Markup:
    """`url` as a QR code, inline SVG with its quiet zone (medium error correction: a creased card still reads)."""
    return Markup(segno.make(url, error="m").svg_inline(scale=3, border=4, title=url))
