"""Nothing of a removed member outlives them, nothing of theirs reaches another: member ids are never used
twice, and a removal killed (kill -9) at any of its steps is finished when the server starts again, so
the next member to sign up starts with nothing of the removed one's (before, on SQLite, they were handed
the removed member's whole progress and lists; on PostgreSQL the schema stayed for good)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from lexitrain.club.app import Club
from lexitrain.club.store import ClubDatabase
from lexitrain.lexicon.lexicon import Lexicon
from test_club_api import KIND, client, lex, member, play  # noqa: F401  (lex is a fixture)
from web_helpers import Clock

#: Kills the process (kill -9: nothing of its own is cleaned up) at one step of removing a member.
KILLER = r"""
import os, shutil, signal, sys
from lexitrain.club import member_stores, members
from lexitrain.club.app import Club
from lexitrain.club.store import ClubDatabase
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.study.store.postgres import PostgresConnection

target, lexicon, name, step = sys.argv[1:5]

def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)

if step == "within its transaction":  # the member's rows deleted, the COMMIT not yet sent
    deleted = []

    def watch(sql):
        if sql.lstrip().upper().startswith("DELETE FROM MEMBERS"):
            deleted.append(sql)
        elif deleted and sql.lstrip().upper().startswith("COMMIT"):
            die()

    execute = PostgresConnection.execute

    def watched(self, sql, *args, **kwargs):
        watch(sql)
        return execute(self, sql, *args, **kwargs)

    PostgresConnection.execute = watched
    connect = ClubDatabase._sqlite

    def traced(self):
        conn = connect(self)
        conn.set_trace_callback(watch)
        return conn

    ClubDatabase._sqlite = traced
elif step == "before the store goes":
    member_stores.MemberStores.remove = die
elif step == "before the lists go":
    member_stores.shutil.rmtree = die
elif step == "before the removal is closed":
    members.end_removal = die
with ClubDatabase(target) as db:
    club = Club(db, open_lexicon(lexicon))
    found = members.member_named(db, name)
    club.remove_member(found.id)
sys.exit(3)  # (not killed: the removal ran whole)
"""
STEPS = ["within its transaction", "before the store goes", "before the lists go", "before the removal is closed",
         "never (it runs whole)"]


def member_id(club: Club, name: str) -> int | None:
    with club.db.transaction() as tx:
        row = tx.conn.execute("SELECT id FROM members WHERE name = ?", (name,)).fetchone()
    return None if row is None else int(row[0])


def store_exists(club: Club, ident: int) -> bool:
    if club.db.postgres:
        with club.db.transaction() as tx:
            return tx.conn.execute("SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?",
                                   (f"member_{ident}",)).fetchone()[0] == 1
    return (club.stores.folder / f"member_{ident}" / "progress.sqlite").exists()


def pending_removals(club: Club) -> int:
    with club.db.transaction() as tx:
        row = tx.conn.execute("SELECT count(*) FROM removals").fetchone()
    assert row is not None
    return int(row[0])


def a_member_with_progress_and_a_list(club: Club, lex: Lexicon, name: str) -> int:
    web, csrf = member(club, name)
    assert play(web, csrf, club, lex, 2, 30)["score"] == 2
    assert len(web.get("/api/cards").json()) > 0  # (the finish's cards paid into their store)
    uploaded = web.post("/study/lists", data={"name": "mine", "csrf": csrf},
                        files={"file": ("mine.txt", b"AB\nBA\n")}, follow_redirects=False)
    assert uploaded.status_code == 303, uploaded.text
    ident = member_id(club, name)
    assert ident is not None and store_exists(club, ident)
    return ident


def starts_with_nothing(club: Club, name: str, removed: int) -> None:
    """A new member's id is none that was used before, and their store, cards and lists are empty."""
    web, csrf = member(club, name)
    ident = member_id(club, name)
    assert ident is not None and ident > removed
    assert web.get("/api/cards").json() == []
    whole = web.get("/api/progress").json()
    assert whole["cards"] == [] and whole["answers"] == []
    assert "mine" not in web.get("/study/").text


@pytest.mark.parametrize("step", STEPS)
def test_a_removal_killed_at_any_step_is_finished_as_the_server_starts(club_target: str, lex: Lexicon, step: str,
                                                                       home: Path) -> None:
    with ClubDatabase(club_target) as db:
        club = Club(db, lex, clock=Clock())
        member(club, "root", admin=True)
        ann = a_member_with_progress_and_a_list(club, lex, "ann")
    killer = subprocess.run([sys.executable, "-c", KILLER, club_target, lex.name, "ann", step],
                            env={**os.environ, "LEXITRAIN_HOME": str(home)}, capture_output=True, text=True,
                            timeout=300)
    assert killer.returncode == (3 if step.startswith("never") else -9), killer.stderr
    with ClubDatabase(club_target) as db:
        club = Club(db, lex, clock=Clock())
        with client(club):  # the server starts: an interrupted removal is finished
            pass
        assert pending_removals(club) == 0
        if step == "within its transaction":  # killed before it committed: nothing of it happened
            assert member_id(club, "ann") == ann and store_exists(club, ann)
            admin, csrf = member(club, "boss", admin=True)
            assert admin.delete("/api/admin/members/ann", headers={"x-csrf-token": csrf}).status_code == 200
        assert member_id(club, "ann") is None
        assert not store_exists(club, ann) and not (club.stores.folder / f"member_{ann}").exists()
        starts_with_nothing(club, "cat", ann)


def test_a_removed_members_id_is_never_given_again(club_target: str, lex: Lexicon) -> None:
    with ClubDatabase(club_target) as db:
        club = Club(db, lex, clock=Clock())
        admin, csrf = member(club, "root", admin=True)
        ann = a_member_with_progress_and_a_list(club, lex, "ann")  # the newest member: SQLite gave her id again
        removed = admin.delete("/api/admin/members/ann", headers={"x-csrf-token": csrf})
        assert removed.status_code == 200 and removed.json()["cards"]  # their whole progress, for the admin
        starts_with_nothing(club, "bob", ann)
