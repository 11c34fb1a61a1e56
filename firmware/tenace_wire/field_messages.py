"""The field tools' messages: a terminal's STATUS (for `tenace terminals`) and the host's PING (for `tenace survey`).

STATUS payload, 82 bits in 11 bytes (a 26-byte frame), most significant bit first:
    major 4 | minor 6 | patch 6 (the firmware's version) | battery_mv 13 (0: no reading) | battery 7 (0-100 %)
    | rssi 8 (dBm, -127..0; 0: the radio does not tell) | sent 16 | retried 16 (frames the terminal put on the
    air first time and again since it signed in, each saturating at 65535: the uplink's loss as the terminal sees
    it) | factory 2 (0: never run, 1: passed, 2: failed) | checks 4 (one bit per check that passed: keys 8,
    display 4, radio 2, battery 1) | 6 zero bits
A status is sent after every accepted sign-in and every few minutes after; the host keeps the latest.

PING payload: number 16, any value (the survey's count). The terminal's session acknowledges it like any host
frame and the app never sees it: the survey times the round trip from its transmission to that ACK.
"""

from micropython import const

from tenace_wire.fields import Message
from tenace_wire.frame_types import PING, STATUS

# Factory test states and check bits (STATUS's factory and checks).
NOT_RUN = const(0)
PASSED = const(1)
FAILED = const(2)
KEYS = const(8)
DISPLAY = const(4)
RADIO = const(2)
BATTERY = const(1)
CHECKS = ("keys", "display", "radio", "battery")  # in bit order from the top: KEYS, DISPLAY, RADIO, BATTERY
COUNT_MAX = const(65535)


class Status(Message):
    """What a terminal says of itself: firmware, battery, its link's counters and its factory test."""

    TYPE = STATUS
    FIELDS = ("major", "minor", "patch", "battery_mv", "battery", "rssi", "sent", "retried", "factory", "checks")
    SPEC = (4, 0, 15, 6, 0, 63, 6, 0, 63, 13, 0, 8191, 7, 0, 100, 8, -127, 0, 16, 0, COUNT_MAX, 16, 0, COUNT_MAX,
            2, 0, 2, 4, 0, 15)

    major: int
    minor: int
    patch: int
    battery_mv: int
    battery: int
    rssi: int
    sent: int
    retried: int
    factory: int
    checks: int


class Ping(Message):
    """A survey's probe: the terminal acknowledges it, nothing more."""

    TYPE = PING
    FIELDS = ("number",)
    SPEC = (16, 0, 65535)

    number: int


def version_fields(version: str) -> "tuple[int, int, int]":
    """"0.1.0" as (0, 1, 0), each part clamped to what STATUS carries; 0 for a part that is not a number."""
    out = [0, 0, 0]
    parts = version.split(".")
    highest = (15, 63, 63)
    for i in range(min(3, len(parts))):
        try:
            n = int(parts[i])
        except ValueError:
            n = 0
        out[i] = n if 0 <= n <= highest[i] else highest[i]
    return out[0], out[1], out[2]
