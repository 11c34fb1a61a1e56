"""A terminal's settings file as tenace flash writes it, read by its board file. Runs under pytest and MicroPython."""

import os

from tenace_terminal.settings_file import read_settings

from checks import raises

PATH = "settings_test.cfg"  # in the working directory: MicroPython has no tempfile


def write(text):
    with open(PATH, "w") as f:
        f.write(text)


def test_id_and_channel():
    try:
        write("# written by tenace flash for terminal-pico-nrf24\nid=12\nchannel=76\n")
        assert read_settings(PATH, 5) == {"id": 12, "channel": 76}
        write("id=3\n")
        assert read_settings(PATH, 5) == {"id": 3, "channel": 5}  # the transport's own channel
    finally:
        os.remove(PATH)


def test_no_id():
    try:
        write("channel=1\n")
        raises(SystemExit, read_settings, PATH, 5)
    finally:
        os.remove(PATH)
    raises(SystemExit, read_settings, "no_such_file.cfg", 5)


def test_club_key():
    try:
        write("id=4\nchannel=6\nclub=000102030405060708090a0b0c0d0e0f\n")
        assert read_settings(PATH, 5) == {"id": 4, "channel": 6, "club": bytes(range(16))}
        for bad in ("club=0001\n", "club=zz0102030405060708090a0b0c0d0e0f\n"):
            write("id=4\n" + bad)
            assert "club key" in raises(SystemExit, read_settings, PATH, 5)
    finally:
        os.remove(PATH)
