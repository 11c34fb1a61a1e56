"""The processes of `tenace hub serve`: its page workers and its scoring worker, each a child that ends with it
however it ends, all stopped on SIGTERM or SIGINT.

The children are plain processes (not multiprocessing's, whose resource tracker would outlive a killed parent), in
a process group of their own (a Ctrl-C at the terminal reaches the parent alone, which stops them), started with
the database's URL in the environment (tenace.commands.hub.DB_ENV), never on a command line `ps` shows. The page
workers share one listening socket, as uvicorn's own workers do."""

from __future__ import annotations

import logging
import os
import signal
import socket
import subprocess
import sys
import threading
from types import FrameType

from tenace.errors import Failure, UsageError
from tenace.lifetime import die_with_parent, end_with_parent

log = logging.getLogger(__name__)

DB_ENV = "TENACE_HUB_DB"
STOP_S = 10.0  # a child still running this long after SIGTERM is killed


def listening_socket(host: str, port: int) -> socket.socket:
    """The socket every page worker accepts on; UsageError when it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError as e:
        sock.close()
        raise UsageError(f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    sock.set_inheritable(True)
    return sock


def _child(role: str, level: int, sock: socket.socket | None = None) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "tenace.hub.serving", role, str(os.getpid()), str(level)]
    if sock is not None:
        argv.append(str(sock.fileno()))
    return subprocess.Popen(argv, preexec_fn=die_with_parent, process_group=0,
                            pass_fds=() if sock is None else (sock.fileno(),))


def serve(url: str, host: str, port: int, workers: int) -> int:
    """Run `workers` page workers and one scoring worker on the database at `url` until SIGTERM or SIGINT (0), or
    until one of them stops on its own (Failure: the others are stopped first)."""
    sock = listening_socket(host, port)
    os.environ[DB_ENV] = url
    stop = threading.Event()

    def stopping(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stopping)
    level = logging.getLogger().getEffectiveLevel()
    children: list[subprocess.Popen[bytes]] = []
    try:
        children.append(_child("scoring", level))
        children += [_child("pages", level, sock) for _ in range(workers)]
        sock.close()  # the workers hold it now
        while not stop.wait(0.2):
            ended = [c for c in children if c.poll() is not None]
            if ended:
                raise Failure(f"a worker of the hub stopped by itself (exit code {ended[0].returncode}): "
                              "the hub stopped the others; its log says why")
    finally:
        _stop(children)
        sock.close()
    return 0


def _stop(children: list[subprocess.Popen[bytes]]) -> None:
    for child in children:
        if child.poll() is None:
            child.terminate()
    for child in children:
        try:
            child.wait(STOP_S)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _pages(fd: int) -> None:
    import uvicorn

    sock = socket.socket(fileno=fd)
    # uvicorn's own lines at warning whatever `level` (at info it logs every request); the hub's at `level`
    config = uvicorn.Config("tenace.hub.pages:app_from_env", factory=True, log_level="warning")
    uvicorn.Server(config).run(sockets=[sock])


def _scoring(level: int) -> None:
    from tenace.hub.scorer import serve as serve_scoring

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: sys.exit(0))  # its connections closed on the way out, no traceback
    serve_scoring(os.environ[DB_ENV], None, 1.0, level)


def main(argv: list[str]) -> None:
    """A child's entry: ROLE PARENT LEVEL [FD]."""
    role, parent, level = argv[0], int(argv[1]), int(argv[2])
    end_with_parent(parent)
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    if role == "pages":
        _pages(int(argv[3]))
    else:
        _scoring(level)


if __name__ == "__main__":
    main(sys.argv[1:])
