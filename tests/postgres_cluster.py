"""A throw-away PostgreSQL cluster from the machine's own binaries (Debian's `postgresql` package),
listening only on a unix socket in a temp folder, for the club's tests and `scripts/bench_club.py`.

`pg_ctl` starts the server as a daemon, so a test run that is killed (kill -9, a CI job cancelled)
cannot stop it: each cluster's folder names the process that started it (`owner`), and the next
cluster started sweeps away those whose owner is gone: their server stopped, their folder removed.

As root the server must run as another user (PostgreSQL refuses root): `postgres` if the package made
it, else `nobody`; its folder is handed to that user. Nothing here touches a cluster the machine runs.
`copy_store` gives a member's schema the whole history of a SQLite progress store (the benchmarks' one way).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import sqlite3
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


def postmaster_pid(data: Path) -> int | None:
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
        server = postmaster_pid(folder / "data")
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


def copy_store(source: Path, url: str, schema: str) -> None:
    """Every row of the SQLite progress store at SOURCE into SCHEMA of the PostgreSQL database at URL (made there by
    the store itself if need be, emptied first), by COPY, table by table in the order they were made, in one
    transaction: filling a store of a million answers answer by answer takes half an hour. Each identity column's
    sequence is set past its rows; the copy gets a store id of its own (two stores never share one: a sync tells
    them apart by it); the tables are analysed. The kept due days are made by the cards' own triggers."""
    import psycopg

    from lexitrain.study.store import ProgressStore
    from lexitrain.study.store.postgres import PostgresConnection
    from lexitrain.study.store.uids import new_uid

    ProgressStore(postgres=PostgresConnection(psycopg.connect(url), schema)).close()  # (its tables, made as a club makes them)
    rows = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = [name for (name,) in rows.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'due_days' "
            "ORDER BY rowid")]
        with psycopg.connect(url) as conn:
            conn.execute(f"SET search_path TO {schema}")
            for table in tables:
                columns = [row[1] for row in rows.execute(f"PRAGMA table_info({table})")]
                conn.execute(f"DELETE FROM {table}")
                cursor = rows.execute(f"SELECT {', '.join(columns)} FROM {table}")
                with conn.cursor().copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
                    while batch := cursor.fetchmany(10_000):
                        for row in batch:
                            copy.write_row(row)
            for table, column in conn.execute(
                    "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = %s "
                    "AND is_identity = 'YES'", (schema,)).fetchall():
                conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                             f"(SELECT COALESCE(max({column}), 0) + 1 FROM {table}), false)")
            conn.execute("UPDATE change_seq SET store = %s", (new_uid(),))
            conn.execute("ANALYZE")
    finally:
        rows.close()
