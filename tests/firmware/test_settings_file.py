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
