"""Why a frame was refused: the one error type of the wire (WireError), its reasons, and their counters.

A session's counters are a plain dict (no class: RAM on MicroPython), from reason to number of frames,
with ACCEPTED_FRAME and DUPLICATE beside the refusal reasons; every frame received adds one to exactly one.
"""

# Reasons, in the order the receiver checks them. Each is a short word for counters and logs.
SHORT = "short"                      # fewer bytes than the smallest frame
LONG = "long"                        # more than 32 bytes
BAD_CRC = "bad_crc"                  # CRC-16 mismatch: noise, or any byte changed in flight
BAD_VERSION = "bad_version"          # another protocol version
WRONG_DIRECTION = "wrong_direction"  # a host frame at the host, or a terminal's frame at a terminal
BAD_TYPE = "bad_type"                # no such frame type in this direction
BAD_TAG = "bad_tag"                  # authentication failed: forged, altered (CRC fixed up) or another key
MALFORMED = "malformed"              # authentic, but a field is out of range or the length is wrong
NOT_MINE = "not_mine"                # a terminal hearing a frame for another terminal (shared radio channel)
NOT_SIGNED_IN = "not_signed_in"      # from or to a terminal that has not signed in
REPLAY = "replay"                    # stale: below the replay window, or a sign-in answer to an old nonce
WRONG_TABLE = "wrong_table"          # a result or entry for a section/table other than the terminal's
BUSY = "busy"                        # sender side: too many frames waiting for their acknowledgement
SEQ_EXHAUSTED = "seq_exhausted"      # sender side: 65535 sequence numbers used; re-pair the terminal

# Not a refusal: a frame already received (a retransmission, or the same bytes replayed). It is
# acknowledged again and changes nothing; counted apart, under this name.
DUPLICATE = "duplicate"


class WireError(ValueError):
    """A frame or message refused: `reason` is one of the words above, the text says what was wrong.

    `inbound` is set when the frame was authentic and the host may still acknowledge it with a
    refusal status (wrong table, not signed in), so the terminal stops retransmitting it.
    """

    def __init__(self, reason: str, detail: str = "", inbound: "object | None" = None) -> None:
        super().__init__("%s: %s" % (reason, detail) if detail else reason)
        self.reason = reason
        self.inbound = inbound


ACCEPTED_FRAME = "accepted"  # the counter of frames taken in


def tally(counters: "dict[str, int]", name: str) -> None:
    """Add one to counters[name] (ACCEPTED_FRAME, DUPLICATE or a refusal reason)."""
    counters[name] = counters.get(name, 0) + 1
