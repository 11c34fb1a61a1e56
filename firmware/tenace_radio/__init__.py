"""Tenace radio: transports that carry wire frames over a link, and the base station that relays them.

Every transport has the same two methods and one counter, so the terminal app, the base station and
the tests take any of them:

    transport.send(frame: bytes) -> None    never blocks long; a frame the link cannot take now (a full
                                            radio FIFO, a failed radio send) is dropped and counted
    transport.recv() -> bytes | None        non-blocking: one received frame, or None
    transport.dropped: int                  frames dropped so far (not sent, or received garbled)

Losing a frame is fine: the sessions in tenace_wire number, acknowledge and retransmit. The
drivers are injected already built (DESIGN hard rule 6), so the tests pass fakes of their shape:
- uart_transport.py: SLIP over a byte stream shaped like machine.UART (a serial terminal, the
  base station's USB side);  usb_serial.py: the USB serial console as such a stream;
- espnow_transport.py: ESP-NOW, every node on the one broadcast peer;
- nrf24_transport.py: micropython-lib's nrf24l01 driver, 32-byte payloads, half-duplex;
- base_station.py: radio <-> serial relay, no key, counters;  console_relay.py: that relay on the USB
  console until a stop button, what every base-station board runs;
- base_main.py: the device's main.py; it starts :board.py, the board file that builds the real drivers
  (hardware/<board>/board.py, the only code that imports machine).
"""
