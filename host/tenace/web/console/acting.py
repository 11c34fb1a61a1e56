"""A director's action posted from a console page: checked, read from its form, done on the event file, answered."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass

from starlette.requests import Request
from starlette.responses import Response

from tenace.director import parse
from tenace.director.errors import DirectorInputError
from tenace.errors import UsageError
from tenace.store import EntryError, LateChange, StoreError
from tenace.web.console.auth import Session
from tenace.web.console.forms import ACTIONS, ENTRY_FIELDS, one_line
from tenace.web.console.room import Room, spoken


@dataclass(frozen=True)
class Acted:
    """What an action's post came to: its log line (`done`), or its refusal (`error`, and the field at fault)."""

    session: Session
    form: dict[str, str]
    done: str | None = None
    error: str | None = None
    field: str | None = None  # the form's field the refusal concerns, when it names one
    refusal: DirectorInputError | None = None  # the director's own refusal, to be worded in the page's language
    stale: bool = False  # refused because the page the form was on is out of date (`error` says what changed)


class Stale(Exception):
    """The form was made from what has changed since (another tab, a terminal): nothing is done; the message says
    what changed."""


async def act(room: Room, request: Request, name: str,
              guard: Callable[[sqlite3.Connection, dict[str, str]], None] | None = None) -> Acted | Response:
    """The action `name` (forms.ACTIONS) with the post's form; the 403 Response when the post may not act. `guard`
    first, on the same connection: Stale when the form's page is out of date."""
    found = await room.checked(request)
    if isinstance(found, Response):
        return found
    session, form = found
    read = ACTIONS[name]

    def run(conn: sqlite3.Connection) -> str:
        if guard is not None:
            guard(conn, form)
        signed = parse.signature(session.name, form.get("why"), "force" in form)
        return read(form)(conn, signed)  # the form's faults before the file's
    try:
        return Acted(session, form, done=await room.write(run))
    except Stale as e:
        return Acted(session, form, error=str(e), stale=True)
    except LateChange as e:
        return Acted(session, form, error=spoken().plain("late_change", why=one_line(e)), field="force")
    except DirectorInputError as e:
        return Acted(session, form, error=one_line(e), field=e.field, refusal=e)
    except EntryError as e:  # a result's field check names its field: the refusal is shown beside it
        return Acted(session, form, error=one_line(e), field=ENTRY_FIELDS.get(e.reason) or None)
    except (StoreError, UsageError, sqlite3.Error) as e:
        return Acted(session, form, error=one_line(e))

