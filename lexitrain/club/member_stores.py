"""Where each member's progress store is: how it is opened, exported, merged into and removed.

A member's cards, decks, plans, walls and answers are in a progress store of their own, the local
app's (`study.store`): on an SQLite club a file in the member's folder beside the club's database,
on PostgreSQL a schema of their own in the club's database (`study.store.postgres`), which the
connection alone sees. The member's study (`/study`), the club's study routes and what the club owes
a member (`club.owed`) all open it here, for one request at a time: on PostgreSQL every member's store
is reached through the process's one bounded pool (`study.store.postgres.PostgresPool`).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lexitrain.club.store import ClubDatabase
from lexitrain.errors import LexitrainError
from lexitrain.paths import data_home
from lexitrain.study.records.transfer import backup_data, merge_backup
from lexitrain.study.store import ProgressStore
from lexitrain.study.store.migrations import migrate_postgres
from lexitrain.web.edge import Refused


class MemberStores:
    """Where each member's progress store is, and how it is opened, exported, merged into and removed."""

    def __init__(self, db: ClubDatabase) -> None:
        self.db = db
        self.target = db.target
        self.postgres = db.postgres
        if db.postgres:
            database = re.sub(r"\W", "_", db.target.rsplit("/", 1)[-1].split("?", 1)[0]) or "club"
            self.folder = data_home() / "club" / database  # (where an earlier lexitrain kept uploaded lists)
        else:
            path = Path(db.target)
            self.folder = path.with_name(f"{path.stem}-members")

    def home(self, member_id: int) -> Path:
        """The member's own folder: on SQLite, where their progress file is (an earlier lexitrain kept their
        uploaded lists there, on PostgreSQL too: they are moved into the store when it is first opened)."""
        return self.folder / f"member_{int(member_id)}"

    @contextmanager
    def open(self, member_id: int) -> Iterator[ProgressStore]:
        """The member's store (made the first time) for the block: on PostgreSQL a connection the process's pool
        lends, its search path the member's schema (given back after: a member holds none between requests);
        on SQLite their file, opened and closed again."""
        if self.db.pool is None:
            self.home(member_id).mkdir(parents=True, exist_ok=True)
            with ProgressStore(self.home(member_id) / "progress.sqlite") as store:
                yield store
            return
        from lexitrain.study.store.postgres import member_schema

        with self.db.pool.connection(member_schema(member_id), make=migrate_postgres) as connection:
            yield ProgressStore(postgres=connection, made=True)

    def export(self, member_id: int) -> dict[str, Any]:
        """The member's store as a `progress export` file's contents."""
        with self.open(member_id) as store:
            return backup_data(store.export_rows())

    def merge(self, member_id: int, data: Any) -> dict[str, Any]:
        """Merge a `progress export` file's contents into the member's store by the local rule (a card
        takes the file's state only when reviewed more recently there; answers never twice): what it
        took. A damaged or foreign file is refused (400), nothing merged."""
        try:
            with self.open(member_id) as store:
                return merge_backup(store, data, "the upload")
        except LexitrainError as exc:
            raise Refused(400, str(exc)) from None

    def remove(self, member_id: int) -> None:
        """Delete the member's store (on SQLite its file, then their folder): the member is being removed."""
        if self.db.pool is not None:
            from lexitrain.study.store.postgres import member_schema

            self.db.pool.drop_schema(member_schema(member_id))
        folder = self.folder / f"member_{int(member_id)}"
        for name in ("progress.sqlite", "progress.sqlite-wal", "progress.sqlite-shm", "progress.sqlite-journal"):
            (folder / name).unlink(missing_ok=True)
        shutil.rmtree(folder, ignore_errors=True)

    def highest_id(self) -> int:
        """The highest member id a folder (and so perhaps a store) is kept under, 0 for none."""
        found = [int(folder.name.removeprefix("member_")) for folder in self.folder.glob("member_*")
                 if folder.name.removeprefix("member_").isdigit()]
        return max(found, default=0)
