"""The simulated terminal's collector (tenace.simulation.terminal.table_host): its line protocol and what it refuses."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator

import pytest

from tenace.simulation.terminal.table_host import HostOptions, serve


@pytest.fixture
def line() -> Iterator[socket.socket]:
    port, stop = serve()
    sock = socket.create_connection(("127.0.0.1", port))
    yield sock
    sock.close()
    stop()


def ask(sock: socket.socket, text: str) -> str:
    sock.sendall(text.encode() + b"\n")
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(4096)
        assert chunk, "the table host closed the line"
        data += chunk
    return data.decode().strip()


def test_each_line_gets_one_answer_and_a_mistake_is_an_answer_not_a_dead_line(line: socket.socket) -> None:
    assert ask(line, "Q results") == "! ValueError: no event yet: send N first"
    made = json.loads(ask(line, 'N {"rounds": 2, "boards_per_round": 2, "settings": {"lead": "warn"}, "deals": true}'))
    assert len(bytes.fromhex(made["key"])) == 16 and len(made["code"]) == 6 and made["code"].isdigit()
    assert ask(line, "X 1000") == ""  # nothing heard, nothing to say
    assert ask(line, "X 1000 zz").startswith("! ValueError")  # not hex
    assert ask(line, "Q drop_tables") == "! ValueError: no question 'drop_tables'"
    assert ask(line, "Q enter 2 1 1 3NT S 9") == '"stored"'
    assert json.loads(ask(line, "Q results")) == {"1001": "played v0 3NT S 9 +400"}
    assert ask(line, "Q result 1 2") == "null"
    assert ask(line, "Q enter 2 1 1 8NT S 9").startswith("! EntryError")
    assert ask(line, 'N {"rounds": 0}').startswith("! MovementError")
    assert ask(line, 'N {"settings": {"result": "guess"}}') == (
        "! ValueError: result entry must be one of any, relative, tricks, not 'guess'")
    assert ask(line, "N {").startswith("! JSONDecodeError")


def test_options_from_the_simulator_and_the_collector_settings_they_make() -> None:
    options = HostOptions.from_json('{"rounds": 5, "settings": {"players": "required", "result": "tricks", '
                                    '"traveller": true, "language": "he"}}')
    settings = options.settings()
    assert (options.rounds, options.boards_per_round, options.lead) == (5, 3, "on")
    assert (settings.player_numbers, settings.result_entry, settings.show_traveller, settings.language) == (
        "required", "total", True, "he")
