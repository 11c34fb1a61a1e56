"""The real base station on a serial port (pyserial), SLIP both ways, reconnecting when it is unplugged.

pyserial has no asyncio interface of its own; a reader thread (blocking reads with a short timeout work
the same on Linux, macOS and Windows) hands the bytes to the collector's loop, and writes are made from
the loop. When the device disappears the thread closes it and tries to open it again every second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading

import serial

from tenace.collector.service import BaseStation, Service

log = logging.getLogger(__name__)

RETRY_S = 1.0


def usb_ports() -> list[str]:
    """The USB serial ports plugged in now, by device name (/dev/ttyUSB0, COM3): where a base station would be. A
    built-in UART (Linux lists /dev/ttyS0 whether or not anything is there) is left out."""
    from serial.tools.list_ports import comports

    return sorted(port.device for port in comports() if port.vid is not None)


def open_port(device: str, baud: int) -> serial.Serial:
    """The port opened for exclusive use; serial.SerialException when it is missing or busy."""
    return serial.Serial(device, baud, timeout=0.1, write_timeout=1.0, exclusive=True)


class SerialLink:
    """Keeps a base station on `device` attached to the service while it is plugged in."""

    def __init__(self, service: Service, loop: asyncio.AbstractEventLoop, device: str, baud: int,
                 port: serial.Serial | None = None) -> None:
        self.service = service
        self.loop = loop
        self.device = device
        self.baud = baud
        self._port = port
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"serial {device}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2.0)

    def _run(self) -> None:
        warned = False
        while not self._stop.is_set():
            port = self._port
            if port is None:
                try:
                    port = open_port(self.device, self.baud)
                except (serial.SerialException, OSError) as e:
                    if not warned:
                        log.warning("base station on %s is not there (%s): waiting for it to be plugged in",
                                    self.device, e)
                        warned = True
                    self._stop.wait(RETRY_S)
                    continue
                log.warning("base station on %s is back", self.device)
            warned = False
            self._port = port
            self._read(port)
            self._port = None
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()

    def _read(self, port: serial.Serial) -> None:
        station = BaseStation(f"serial {self.device}", lambda data: self._write(port, data))
        self.loop.call_soon_threadsafe(self.service.attach, station)
        try:
            while not self._stop.is_set():
                data = port.read(max(1, port.in_waiting))
                if data:
                    self.loop.call_soon_threadsafe(self.service.heard, station, bytes(data))
        except (serial.SerialException, OSError, TypeError) as e:
            # TypeError: pyserial on a vanished device may read a None length; it is the same unplugging.
            log.warning("base station on %s unplugged (%s): reconnecting when it is back", self.device, e)
        finally:
            self.loop.call_soon_threadsafe(self.service.detach, station)

    def _write(self, port: serial.Serial, data: bytes) -> None:
        try:
            port.write(data)
        except serial.SerialException as e:
            raise OSError(str(e)) from e
