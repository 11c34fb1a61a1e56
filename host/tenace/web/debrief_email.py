"""`tenace report --email`: each player's result and debrief link sent once through the club's SMTP server; what was
sent is kept in a CSV file beside the event file, so a second run sends only what the first did not."""

from __future__ import annotations

import csv
import io
import smtplib
import ssl
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import parseaddr
from pathlib import Path

from tenace.errors import UsageError
from tenace.reports.event_results import EventResults, scorecard
from tenace.roster import EMAIL, read_roster
from tenace.web.pages import pair_slug
from tenace.web.qr import debrief_url, public_base

SMTP_TIMEOUT_S = 30.0
SENT_FIELDS = ("number", "email", "sent")


@dataclass(frozen=True)
class Settings:
    """The club's SMTP server and what the messages need, from the settings file (never the command line: a password
    on it would be in the shell's history and the process list)."""

    host: str
    port: int
    starttls: bool
    user: str | None
    password: str | None
    sender: str
    cafile: Path | None  # the authority a club's own server certificate is checked against (None: the system's)
    roster: Path  # the roster CSV with the e-mail column
    base: str  # the public pages' address the links name


@dataclass(frozen=True)
class Letter:
    number: int
    name: str
    email: str
    message: EmailMessage


@dataclass
class Sending:
    """What a run did: sent now, sent by an earlier run, and who could not be reached (with why)."""

    sent: list[Letter] = field(default_factory=list)
    earlier: int = 0
    unreached: list[str] = field(default_factory=list)


def read_settings(path: Path) -> Settings:
    """The settings file (TOML: [smtp] host, port, starttls, user, password, from, cafile; [email] roster, base);
    UsageError in one line for what is missing or wrong."""
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise UsageError(f"--email {path}: cannot read the settings file: {e}") from None
    smtp, email = doc.get("smtp"), doc.get("email")
    if not isinstance(smtp, dict) or not isinstance(email, dict):
        raise UsageError(f"--email {path}: the settings file needs an [smtp] and an [email] table")

    def text(table: dict[str, object], key: str, where: str, needed: bool = True) -> str | None:
        value = table.get(key)
        if value is None and not needed:
            return None
        if not isinstance(value, str) or not value.strip():
            raise UsageError(f"--email {path}: [{where}] {key} is {'missing' if value is None else 'not a text'}")
        return value.strip()

    port = smtp.get("port", 587)
    starttls = smtp.get("starttls", True)
    if not isinstance(port, int) or isinstance(port, bool) or not 1 <= port <= 65535:
        raise UsageError(f"--email {path}: [smtp] port is a number, 1 to 65535 (587 for STARTTLS)")
    if not isinstance(starttls, bool):
        raise UsageError(f"--email {path}: [smtp] starttls is true or false")
    user, password = text(smtp, "user", "smtp", False), text(smtp, "password", "smtp", False)
    if (user is None) != (password is None):
        raise UsageError(f"--email {path}: [smtp] user and password go together (or neither, for no login)")
    if user is not None and not starttls:
        raise UsageError(f"--email {path}: [smtp] a password is sent only over STARTTLS: set starttls = true")
    sender = text(smtp, "from", "smtp") or ""
    if not EMAIL.fullmatch(parseaddr(sender)[1]):
        raise UsageError(f"--email {path}: [smtp] from {sender!r} is not an e-mail address")
    roster = path.parent / (text(email, "roster", "email") or "")  # relative to the settings file, as cafile
    ca = text(smtp, "cafile", "smtp", False)
    cafile = None if ca is None else path.parent / ca
    if cafile is not None and not cafile.is_file():
        raise UsageError(f"--email {path}: [smtp] cafile {str(cafile)!r} is not a file")
    try:
        base = public_base(text(email, "base", "email") or "")
    except UsageError as e:
        raise UsageError(f"--email {path}: [email] base: {e}") from None
    return Settings(text(smtp, "host", "smtp") or "", port, starttls, user, password, sender, cafile, roster, base)


def sent_file(event: Path) -> Path:
    """The record of what was sent, beside the event file: club.sqlite -> club.sqlite.emailed.csv."""
    return event.with_name(event.name + ".emailed.csv")


def already_sent(record: Path) -> set[int]:
    """The players an earlier run sent their result to."""
    if not record.exists():
        return set()
    try:
        rows = list(csv.DictReader(io.StringIO(record.read_text(encoding="utf-8"))))
        return {int(row["number"]) for row in rows}
    except (OSError, UnicodeDecodeError, KeyError, ValueError, TypeError) as e:
        raise UsageError(f"{record}: cannot read what was sent before ({e}): mend or remove it") from None


def letters(results: EventResults, settings: Settings, emails: dict[int, str]) -> tuple[list[Letter], list[str]]:
    """A message for each player the event names who has an address (their pairs' places and debrief links), and a
    line for each who has none."""
    mine: dict[int, tuple[str, list[str]]] = {}
    for section in results.sections:
        for pair in section.report.pairs():
            card = None
            for number, name in section.players.get(pair.label, ()):
                card = card or scorecard(section, pair)
                place = "; ".join(
                    f"place {line.rank}{' ' + line.field if line.field else ''}, "
                    + (f"{line.imps:+} IMPs" if card.imps else f"{line.percent}% ({line.mp} MP)")
                    + f" over {line.boards} boards" for line in card.ranking) or "not ranked"
                link = debrief_url(settings.base, section.section, pair_slug(pair))
                mine.setdefault(number, (name, []))[1].append(f"{pair}: {place}\n  your boards: {link}")
    out, unreached = [], []
    event = results.info.name
    for number, (name, lines) in sorted(mine.items()):
        address = emails.get(number)
        if address is None:
            unreached.append(f"{name} (#{number}): no e-mail in the roster")
            continue
        message = EmailMessage()
        message["From"] = settings.sender
        message["To"] = address
        message["Subject"] = f"{event}: your result"
        final = "" if results.published is not None else "\n(Provisional: the session is not finished yet.)\n"
        message.set_content(f"Dear {name},\n\nyour result at {event} ({results.info.date}):\n\n"
                            + "\n".join(lines) + "\n" + final
                            + "\nEach board's hand, the field's results and the director's notes are on the page.\n")
        out.append(Letter(number, name, address, message))
    return out, unreached


def send(event: Path, results: EventResults, settings: Settings) -> Sending:
    """Send each player not sent to before their letter, each one recorded as soon as the server took it; a player
    the server refuses is said and tried again next run. UsageError when the server cannot be reached at all."""
    try:
        text = settings.roster.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"--email: cannot read the roster {settings.roster}: {e}") from None
    members, _ = read_roster(text)
    emails = {m.number: m.email for m in members if m.email}
    record = sent_file(event)
    done = already_sent(record)
    written, unreached = letters(results, settings, emails)
    outcome = Sending(unreached=unreached)
    due = [letter for letter in written if letter.number not in done]
    outcome.earlier = len(written) - len(due)
    if not due:
        return outcome
    try:
        with smtplib.SMTP(settings.host, settings.port, timeout=SMTP_TIMEOUT_S) as server:
            if settings.starttls:
                server.starttls(context=ssl.create_default_context(cafile=settings.cafile))
            if settings.user is not None and settings.password is not None:
                server.login(settings.user, settings.password)
            for letter in due:
                try:
                    server.send_message(letter.message)
                except (smtplib.SMTPRecipientsRefused, smtplib.SMTPDataError) as e:
                    outcome.unreached.append(f"{letter.name} (#{letter.number}): {letter.email} refused ({e})")
                    continue
                _record(record, [letter])
                outcome.sent.append(letter)
    except (OSError, smtplib.SMTPException) as e:
        said = f"{len(outcome.sent)} sent before that (recorded in {record})" if outcome.sent else "nothing sent"
        raise UsageError(f"--email: the SMTP server {settings.host}:{settings.port}: {e or type(e).__name__}; "
                         f"{said}") from None
    return outcome


def _record(record: Path, sent: Iterable[Letter]) -> None:
    new = not record.exists()
    with record.open("a", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        if new:
            writer.writerow(SENT_FIELDS)
        now = datetime.now(UTC).isoformat(timespec="seconds")
        writer.writerows((letter.number, letter.email, now) for letter in sent)
