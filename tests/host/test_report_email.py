"""`tenace report EVENT --email SETTINGS`: each player with an address in the roster gets one message, through a real
SMTP server on localhost (aiosmtpd), with their place and their pair's page; a second run sends nothing again, a
player who could not be reached is named and reached by a later run once an address is there; a settings file that
is wrong is refused in one line."""

from __future__ import annotations

import os
import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, Envelope, LoginPassword, Session
from cli_runner import tenace
from test_console_publish import played

from tenace.movement import mitchell
from tenace.store import connect
from tenace.store.names import pair_players

REFUSED = "nobody@club.example"


class Inbox:
    """The SMTP server's handler: every message it takes, and a refused address."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if address == REFUSED:
            return "550 no such user here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        assert isinstance(envelope.content, bytes)
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append((list(envelope.rcpt_tos), message))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    handler = Inbox()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def settings(folder: Path, port: int, extra: str = "") -> Path:
    path = folder / "mail.toml"
    path.write_text(f'[smtp]\nhost = "127.0.0.1"\nport = {port}\nstarttls = false\n'
                    f'from = "Club results <results@club.example>"\n{extra}'
                    '[email]\nroster = "members.csv"\nbase = "http://192.168.1.20:8000"\n', encoding="utf-8")
    return path


def roster(folder: Path, emails: dict[int, str]) -> None:
    """Members 1-40 as played() names them, some with an address (a header row, then number..e-mail)."""
    rows = ["number,name,club id,masterpoints,handicap,email"]
    rows += [f"{n},Member {n},,,,{emails.get(n, '')}" for n in range(1, 41)]
    (folder / "members.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_each_player_with_an_address_gets_one_message_and_never_two(
        tmp_path: Path, inbox: tuple[Inbox, int], capsys: pytest.CaptureFixture[str]) -> None:
    handler, port = inbox
    event = played(tmp_path / "club.sqlite", mitchell(3, 2))  # pairs NS 1-3, EW 1-3: members 1 to 12
    conn = connect(event)
    try:
        players = pair_players(conn, "A")
    finally:
        conn.close()
    emails = {n: f"m{n}@club.example" for n in (1, 2, 5, 8, 11)} | {9: REFUSED}
    roster(tmp_path, emails)
    config = settings(tmp_path, port)

    code, _, err = tenace(capsys, "report", str(event), "--email", str(config))
    assert code == 0, err
    got = {to[0]: m for to, m in handler.messages}
    assert sorted(got) == sorted(emails[n] for n in (1, 2, 5, 8, 11))  # one message each, the refused one none
    assert len(handler.messages) == 5
    checked = 0
    for (number, direction), (a, b) in players.items():
        for member in (a, b):
            if emails.get(member, REFUSED) != REFUSED:
                checked += 1
                body = got[emails[member]].get_content()
                assert f"Dear Member {member}," in body
                assert f"http://192.168.1.20:8000/pair/A/{direction}{number}" in body
                assert "% (" in body and "place " in body
    assert checked == 5
    assert got["m1@club.example"]["Subject"] == "Club: your result"
    assert "--email: 5 sent (kept in " in err and "7 could not be reached:" in err
    assert f"Member 9 (#9): {REFUSED} refused" in err and "Member 3 (#3): no e-mail in the roster" in err
    record = (tmp_path / "club.sqlite.emailed.csv").read_text(encoding="utf-8").splitlines()
    assert record[0] == "number,email,sent" and len(record) == 6

    # Again: nothing new. Then an address added, the refused one mended: only those two are sent.
    code, _, err = tenace(capsys, "report", str(event), "--email", str(config))
    assert code == 0 and len(handler.messages) == 5 and "--email: 0 sent, 5 sent before" in err
    roster(tmp_path, emails | {3: "m3@club.example", 9: "m9@club.example"})
    code, _, err = tenace(capsys, "report", str(event), "--email", str(config))
    assert code == 0, err
    assert [to for to, _ in handler.messages[5:]] == [["m3@club.example"], ["m9@club.example"]]
    assert "--email: 2 sent, 5 sent before" in err and "5 could not be reached:" in err


@pytest.mark.parametrize(("extra", "message"), [
    ('user = "td"\n', "[smtp] user and password go together"),
    ('user = "td"\npassword = "x"\n', "a password is sent only over STARTTLS"),
])
def test_a_wrong_settings_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: str,
                                           message: str) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(3, 2))
    code, _, err = tenace(capsys, "report", str(event), "--email", str(settings(tmp_path, 25, extra)))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_no_server_is_one_line_and_nothing_recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event = played(tmp_path / "club.sqlite", mitchell(3, 2))
    roster(tmp_path, {1: "m1@club.example"})
    code, _, err = tenace(capsys, "report", str(event), "--email", str(settings(tmp_path, free_port())))
    assert code == 2 and "--email: the SMTP server 127.0.0.1:" in err and "nothing sent" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "club.sqlite.emailed.csv").exists()


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 (openssl), the club's own authority in the settings file."""
    if shutil.which("openssl") is None:
        if os.environ.get("CI"):
            pytest.fail("openssl is not installed")
        pytest.skip("openssl is not installed")
    cert, key = folder / "club-ca.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    return cert, key


def test_the_login_goes_over_starttls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A server that takes a login only after STARTTLS, its certificate checked against the file's cafile."""
    cert, key = certificate(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    logins: list[tuple[bytes, bytes]] = []

    def authenticator(server: SMTP, session: Session, envelope: Envelope, mechanism: str,
                      auth_data: object) -> AuthResult:
        assert isinstance(auth_data, LoginPassword)
        logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=auth_data.password == b"s3cret")

    handler, port = Inbox(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, tls_context=context, require_starttls=True,
                            auth_require_tls=True, authenticator=authenticator)
    controller.start()
    try:
        event = played(tmp_path / "club.sqlite", mitchell(3, 2))
        roster(tmp_path, {1: "m1@club.example"})
        config = settings(tmp_path, port, 'user = "results"\npassword = "s3cret"\ncafile = "club-ca.pem"\n')
        config.write_text(config.read_text(encoding="utf-8").replace("starttls = false\n", ""), encoding="utf-8")
        code, _, err = tenace(capsys, "report", str(event), "--email", str(config))
    finally:
        controller.stop()
    assert code == 0, err
    assert logins == [(b"results", b"s3cret")] and [to for to, _ in handler.messages] == [["m1@club.example"]]
