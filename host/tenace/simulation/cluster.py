"""A throwaway PostgreSQL cluster for the hub's tests and demo: initdb into a temporary folder, postgres on a unix
socket there and on 127.0.0.1 at a free port, stopped and removed after.

Debian's initdb and postgres refuse to run as root (and CI runs as root): as root the folder is given to an
unprivileged user (Debian's `postgres`) and both run as that user. The cluster is for throwaway data: fsync is off.
"""

from __future__ import annotations

import logging
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from tenace.errors import Failure, UsageError
from tenace.lifetime import die_with_parent

log = logging.getLogger(__name__)

USER = "tenace"  # the cluster's superuser, and the database the hub uses
DATABASE = "hub"
UNPRIVILEGED = "postgres"  # Debian's user, who owns the folder when we are root
START_S = 30.0  # how long postgres may take to accept connections
SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=300",
            "shared_buffers=64MB")


def binaries() -> Path | None:
    """The folder of Debian's PostgreSQL server programs (the newest version installed), None when absent."""
    found = shutil.which("initdb")
    if found is not None and Path(found).with_name("postgres").exists():
        return Path(found).parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/postgres"),
                      key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0)
    return versions[-1].parent if versions else None


MISSING = ("PostgreSQL's server (initdb, postgres) is not installed: tools/setup-env installs Debian's package when "
           "run as root (apt-get install postgresql)")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """A running throwaway cluster: `url` is how psycopg (and `tenace hub --db`) reaches its database."""

    folder: Path
    port: int
    password: str
    process: subprocess.Popen[bytes] | None = None
    _user: str | None = field(default=None, repr=False)
    _outlive: bool = field(default=False, repr=False)

    @property
    def url(self) -> str:
        return f"postgresql://{USER}:{self.password}@127.0.0.1:{self.port}/{DATABASE}"

    @property
    def socket_dir(self) -> Path:
        return self.folder / "run"

    @classmethod
    def start(cls, parent: Path | None = None, outlive: bool = False) -> Cluster:
        """Make, start and open a new cluster with its empty `hub` database; UsageError when the server is absent,
        Failure when it would not start. Its server ends with this process however it ends, unless `outlive`."""
        bindir = binaries()
        if bindir is None:
            raise UsageError(MISSING)
        as_user = UNPRIVILEGED if os.geteuid() == 0 else None
        if as_user is not None:
            try:
                pw = pwd.getpwnam(as_user)
            except KeyError:
                raise UsageError(f"running as root, and there is no user {as_user!r} to run PostgreSQL as") from None
        # Directly under /tmp (not a root-only folder) so that the unprivileged user can reach it; a short path,
        # since a unix socket's path is at most 107 bytes.
        folder = Path(tempfile.mkdtemp(prefix="tenace-pg-", dir=parent))
        cluster = cls(folder, _free_port(), secrets.token_urlsafe(18), _user=as_user, _outlive=outlive)
        try:
            (folder / "run").mkdir()
            (folder / "pw").write_text(cluster.password + "\n")
            if as_user is not None:
                for path in (folder, folder / "run", folder / "pw"):
                    os.chown(path, pw.pw_uid, pw.pw_gid)
            cluster._run([str(bindir / "initdb"), "-D", str(folder / "data"), "-U", USER, "--pwfile",
                          str(folder / "pw"), "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8",
                          "--locale=C", "--no-sync"])
            (folder / "pw").unlink()
            cluster._launch(bindir)
            cluster._create_database()
        except BaseException:
            cluster.stop()
            raise
        log.info("PostgreSQL cluster in %s on 127.0.0.1:%d", folder, cluster.port)
        return cluster

    def _run(self, argv: list[str]) -> None:
        done = subprocess.run(argv, capture_output=True, user=self._user, group=self._user, cwd=self.folder,
                              check=False)
        if done.returncode != 0:
            raise Failure(f"{Path(argv[0]).name} failed:\n{done.stdout.decode(errors='replace')}"
                          f"{done.stderr.decode(errors='replace')}")

    def _launch(self, bindir: Path) -> None:
        argv = [str(bindir / "postgres"), "-D", str(self.folder / "data"), "-p", str(self.port),
                "-c", "listen_addresses=127.0.0.1", "-c", f"unix_socket_directories={self.socket_dir}"]
        for setting in SETTINGS:
            argv += ["-c", setting]
        logfile = (self.folder / "postgres.log").open("wb")
        try:
            if self._user is not None:
                os.chown(self.folder / "postgres.log", pwd.getpwnam(self._user).pw_uid, -1)
            self.process = subprocess.Popen(argv, stdout=logfile, stderr=subprocess.STDOUT, user=self._user,
                                            group=self._user, cwd=self.folder, start_new_session=True,
                                            preexec_fn=None if self._outlive else die_with_parent)
        finally:
            logfile.close()
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise Failure(f"postgres stopped at start:\n{self.log_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                    pass
                if (self.socket_dir / f".s.PGSQL.{self.port}").exists():
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise Failure(f"postgres did not accept connections within {START_S:.0f} s:\n{self.log_text()}")

    def _create_database(self) -> None:
        import psycopg  # only where a cluster is made: the rest of tenace never needs the driver

        deadline = time.monotonic() + START_S
        while True:
            try:
                with psycopg.connect(host=str(self.socket_dir), port=self.port, user=USER, dbname="postgres",
                                     autocommit=True) as conn:
                    conn.execute(f"CREATE DATABASE {DATABASE}")
                return
            except psycopg.OperationalError:  # still starting up
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def shutdown(self) -> None:
        """Stop postgres (a fast shutdown, as an administrator's) and keep its data, for restart()."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=30)
        self.process = None

    def restart(self) -> None:
        """Start postgres again on the same data and port (shut down first if it runs); Failure if it will not."""
        self.shutdown()
        bindir = binaries()
        if bindir is None:
            raise UsageError(MISSING)
        self._launch(bindir)

    def log_text(self) -> str:
        try:
            return (self.folder / "postgres.log").read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def stop(self) -> None:
        """Stop postgres (a fast shutdown) and remove the folder; harmless when already stopped."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()
