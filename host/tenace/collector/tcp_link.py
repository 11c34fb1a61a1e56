"""TCP transport for the simulator: each loopback connection is one base station, SLIP-framed both ways."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path

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


async def serve_tcp(service: Service, host: str, port: int) -> asyncio.Server:
    """Listen for base stations; returns the server (its socket tells the port). OSError when the port is busy."""
    async def connected(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")
        station = BaseStation(f"tcp {peer[0]}:{peer[1]}" if peer else "tcp", writer.write)
        service.attach(station)
        try:
            while data := await reader.read(4096):
                service.heard(station, data)
        except (ConnectionError, OSError) as e:
            log.info("base station %s: %s", station.name, e)
        finally:
            service.detach(station)
            writer.close()

    return await asyncio.start_server(connected, host, port)
