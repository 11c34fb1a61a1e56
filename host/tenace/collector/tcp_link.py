"""TCP transport for the simulator: each loopback connection is one base station, SLIP-framed both ways."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

from tenace.collector.service import BaseStation, Service

log = logging.getLogger(__name__)


def parse_listen(text: str) -> tuple[str, int]:
    """"HOST:PORT" (port 0: any free port) as (host, port); ValueError when it is not."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--listen takes HOST:PORT, e.g. 127.0.0.1:7373 (port 0: any free one), not {text!r}")
    return host.strip("[]"), int(port)


def write_port_file(path: Path, port: int) -> None:
    """The port, written whole or not at all (a reader polling the file never sees half of it)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(f"{port}\n")
    os.replace(tmp, path)


class TcpServer:
    """The listening socket and the base stations connected through it.

    Stopping closes every connection itself, so that each handler sees the end of its stream and
    returns: left to asyncio.run, the handlers would be cancelled mid-read, and Python 3.11 logs each
    such cancellation as an error with a traceback.
    """

    def __init__(self, service: Service) -> None:
        self.service = service
        self.server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._handlers: set[asyncio.Task[Any]] = set()

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._handlers.add(task)
        self._writers.add(writer)
        peer = writer.get_extra_info("peername")
        station = BaseStation(f"tcp {peer[0]}:{peer[1]}" if peer else "tcp", writer.write)
        self.service.attach(station)
        try:
            while data := await reader.read(4096):
                self.service.heard(station, data)
        except (ConnectionError, OSError) as e:
            log.info("base station %s: %s", station.name, e)
        finally:
            self.service.detach(station)
            self._writers.discard(writer)
            writer.close()
            if task is not None:
                self._handlers.discard(task)

    async def close(self, timeout_s: float = 2.0) -> None:
        """Stop listening, close every base station's connection and let their handlers finish."""
        if self.server is not None:
            self.server.close()
        for writer in list(self._writers):
            writer.close()
        if self._handlers:
            await asyncio.wait(list(self._handlers), timeout=timeout_s)


async def serve_tcp(service: Service, host: str, port: int) -> TcpServer:
    """Listen for base stations; the server tells its port. OSError when the port is busy."""
    tcp = TcpServer(service)
    tcp.server = await asyncio.start_server(tcp.connected, host, port)
    return tcp
