"""Tenace wire: the radio/serial protocol between table terminals and the director's laptop (pure, no I/O).

The same package runs on the terminal (MicroPython) and on the laptop (CPython). Modules:
- frame.py: the 32-byte frame (header, payload, 8-byte HMAC tag, CRC-16) and its frame types;
- crc16.py: CRC-16/CCITT-FALSE;  auth.py: HMAC-SHA256, tags, pairing code and event key, threat model;
- errors.py: WireError, the reasons a frame is refused, and their counters;
- fields.py: bit-packed fields and the Message base class;  messages.py: every message by type;
- control.py, table_messages.py, director_messages.py, hand_record.py: the messages themselves;
- outcome.py: a board's outcome (kinds, fields, rule), shared by RESULT and a traveller's lines;
- fragments.py: messages longer than a frame;  session.py: sequence numbers, ACKs, retransmission,
  duplicate discard and replay windows, for the terminal and the host;
- slip.py: SLIP framing of frames on a byte stream (USB serial, UART, the simulator's TCP).
"""
