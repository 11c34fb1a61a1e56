"""What every post to a tenace server must show, and how its refusals are answered: the console's and the hub's.

The forms are urlencoded only and parsed by the standard library's parse_qsl (Starlette's form parser needs
python-multipart, a dependency for nothing more)."""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from tenace.errors import UsageError

# A wrong password or link waits this long before its answer: guessing stays slow even from a script.
REFUSED_DELAY_S = 1.0
# A form is small: a body larger than this is refused before it is parsed.
MAX_FORM_BYTES = 16_384
# Never cached, and never shown in another site's frame (a page could frame the console and steer the director's
# clicks: the cookie goes along to a frame from another port of this host, the same site).
NO_STORE = {"Cache-Control": "no-store", "X-Frame-Options": "DENY",
            "Content-Security-Policy": "frame-ancestors 'none'; form-action 'self'"}


def same_origin(request: Request) -> bool:
    """The request comes from a page of this server: its Origin (or, lacking one, its Referer) is this address."""
    own = f"{request.url.scheme}://{request.url.netloc}"
    origin = request.headers.get("origin")
    if origin is not None:
        return origin == own
    referer = request.headers.get("referer")
    return referer is not None and (referer == own or referer.startswith(own + "/"))


async def form_of(request: Request, limit: int = MAX_FORM_BYTES) -> dict[str, str]:
    """An urlencoded form's fields (a field given twice: its last value); empty fields are left out."""
    body = await request.body()
    if len(body) > limit:
        raise UsageError("the form is too large")
    text = body.decode("utf-8", errors="replace")
    return {k: v.strip() for k, v in parse_qsl(text, keep_blank_values=False) if v.strip()}


def forbidden(message: str) -> Response:
    return PlainTextResponse(message, 403, headers=NO_STORE)
