#!/usr/bin/env python3
"""Wire benchmark: bytes on air per result (RESULT frame + its ACK) and encode/decode rates on this machine."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware"))

from tenace_wire.auth import Tagger
from tenace_wire.control import Ack
from tenace_wire.frame import decode_frame, encode_frame
from tenace_wire.frame_types import ACK, RESULT
from tenace_wire.messages import decode_message
from tenace_wire.table_messages import Result


def rate(fn, seconds: float = 0.5) -> float:  # type: ignore[no-untyped-def]
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(200):
            fn()
        n += 200
    return n / (time.perf_counter() - start)


def main() -> int:
    tagger = Tagger(random.Random(1).randbytes(16))
    result = Result(section=25, table=1023, round=127, board=1023, ns_pair=1023, ew_pair=1022, version=15,
                    level=7, strain=4, doubling=2, declarer=3, tricks=13, lead=52)
    frame = encode_frame(tagger, False, RESULT, 65534, 65535, result.encode())
    ack = encode_frame(tagger, True, ACK, 65534, 65535, Ack(count=1, status=0).encode())
    print(f"result frame: {len(frame)} bytes (payload {len(result.encode())}), ack frame: {len(ack)} bytes, "
          f"on air per result: {len(frame) + len(ack)} bytes")

    def encode() -> None:
        encode_frame(tagger, False, RESULT, 65534, 65535, result.encode())

    def decode() -> None:
        decode_message(RESULT, decode_frame(frame, tagger, False).payload)

    print(f"encode (message + frame): {rate(encode):,.0f} results/s")
    print(f"decode (frame + message): {rate(decode):,.0f} results/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
