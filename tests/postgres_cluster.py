"""A throw-away PostgreSQL cluster from the machine's own binaries (Debian's `postgresql` package),
listening only on a unix socket in a temp folder, for the club's tests and `scripts/bench_club.py`.

`pg_ctl` starts the server as a daemon, so a test run that is killed (kill -9, a CI job cancelled)
cannot stop it: each cluster's folder names the process that started it (`owner`), and the next
cluster started sweeps away those whose owner is gone: their server stopped, their folder removed.

As root the server must run as another user (PostgreSQL refuses root): `postgres` if the package made
it, else `nobody`; its folder is handed to that user. Nothing here touches a cluster the machine runs.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

#: The prefix of every cluster's temp folder, which the sweep looks for.
PREFIX = "lexitrain-pg-"
#: Set in CI: a machine without PostgreSQL fails the club's tests instead of skipping them.
REQUIRE = "LEXITRAIN_REQUIRE_POSTGRES"


def binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder (initdb, pg_ctl), or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class Cluster:
    """One running cluster; `url(database)` reaches it, `stop()` ends it and removes its folder."""

    def __init__(self, bin_dir: Path, max_connections: int = 100, parent: Path | None = None) -> None:
        """`parent`: the folder to make the cluster's own in (default the temp folder)."""
        self.bin = bin_dir
        sweep_stale(parent)
        self.folder = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))
        (self.folder / "owner").write_text(f"{os.getpid()}\n")
        self.port = 5432  # (only a unix socket, in its own folder: any number will do)
        self._user = self._run_as()
        if self._user is not None:
            entry = pwd.getpwnam(self._user)
            os.chown(self.folder, entry.pw_uid, entry.pw_gid)
        data = self.folder / "data"
        self._pg("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "-N")
        options = (f"-k {self.folder} -p {self.port} -c listen_addresses='' -c fsync=off -c synchronous_commit=off "
                   f"-c full_page_writes=off -c max_connections={max_connections}")
        self._pg("pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "-t", "60", "start")
        self._data = data

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}&port={self.port}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE template0')
        return self.url(name)

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        try:
            self._pg("pg_ctl", "-D", str(self._data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)

    @staticmethod
    def _run_as() -> str | None:
        if os.geteuid() != 0:
            return None
        try:
            pwd.getpwnam("postgres")
            return "postgres"
        except KeyError:
            return "nobody"

    def _pg(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self._user is not None:
            command = ["runuser", "-u", self._user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.folder)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed: {done.stderr.strip() or done.stdout.strip()}")


def _alive(pid: int) -> bool:
    """Whether a process runs (a zombie, ended but not yet reaped by its parent, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def _postmaster(data: Path) -> int | None:
    """The pid of the server running on a data folder (its postmaster.pid), if it is still a postgres."""
    try:
        pid = int((data / "postmaster.pid").read_text().split()[0])
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError, IndexError):
        return None
    return pid if b"postgres" in command else None


def sweep_stale(parent: Path | None = None) -> list[Path]:
    """Stop and remove the clusters whose starting process has died; the folders removed."""
    removed = []
    for folder in sorted(Path(parent or tempfile.gettempdir()).glob(f"{PREFIX}*")):
        try:
            owner = int((folder / "owner").read_text())
        except (OSError, ValueError):
            continue  # (a cluster still starting writes its owner first; an unknown folder is left alone)
        if _alive(owner):
            continue
        server = _postmaster(folder / "data")
        if server is not None:
            os.kill(server, signal.SIGQUIT)  # (PostgreSQL's immediate shutdown)
            for _ in range(200):
                if not _alive(server):
                    break
                time.sleep(0.05)
            else:
                os.kill(server, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed
