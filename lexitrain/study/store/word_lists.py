"""Word lists a player uploaded, as rows of their store, by name: any process of a club or of the local app
plays them, and they live where the store lives (the player's file, a member's schema), never in a folder
of the serving machine.

A list travels between the player's stores (`lexitrain sync`, a backup) as the rest of their things do:
each version of it (an upload, a removal) gets an id where it is made and the moment it was made, and the
latest version of a list wins (the same moment: the larger id, so both stores choose alike). A removal
keeps the row without its words, so that the removal travels too and an older copy never brings the list
back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lexitrain.study.store.connection import StoreConnection
from lexitrain.study.store.uids import new_uid

#: A list's name: letters, digits, spaces, dots, dashes and underscores, up to 60 of them.
LIST_NAME = re.compile(r"[\w][\w .-]{0,59}")
#: The largest list kept, in characters of its text (1 MB holds some 100,000 words).
MOST_LIST_CHARS = 1 << 20
#: What a list's text never holds: NUL and the other control characters (a tab, line and page breaks are fine).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")


def words_ok(text: str) -> bool:
    """Whether TEXT may be a list's words: not blank, at most MOST_LIST_CHARS, no control characters."""
    return bool(text.strip()) and len(text) <= MOST_LIST_CHARS and CONTROL.search(text) is None


@dataclass(frozen=True)
class ListVersion:
    """A list as it travels: its name, the id of this version, its text (None: removed), when it was made."""

    name: str
    uid: str
    words: str | None
    changed: float

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "uid": self.uid, "words": self.words, "changed": self.changed}


class WordLists(StoreConnection):
    def keep_word_list(self, name: str, words: str, now: float) -> None:
        """Keep an uploaded list's text under its name (one of that name is replaced), as a new version."""
        self._keep_version(name, words, now)

    def remove_word_list(self, name: str, now: float) -> bool:
        """Remove a list (its removal kept, to travel); whether there was one of that name."""
        with self.transaction():
            if self.word_list(name) is None:
                return False
            self._keep_version(name, None, now)
            return True

    def word_list(self, name: str) -> str | None:
        """An uploaded list's text, None if there is none of that name."""
        row = self.conn.execute("SELECT words FROM word_lists WHERE name = ? AND removed = 0", (name,)).fetchone()
        return None if row is None else str(row[0])

    def word_list_names(self) -> list[str]:
        return [str(row[0]) for row in self.conn.execute(
            "SELECT name FROM word_lists WHERE removed = 0 ORDER BY name").fetchall()]

    def list_versions(self) -> list[ListVersion]:
        """Every list's latest version this store knows, removals included, by name (what a backup holds)."""
        return [ListVersion(name, uid, None if removed else words, float(changed)) for name, uid, words, removed, changed
                in self.conn.execute("SELECT name, uid, words, removed, changed FROM word_lists ORDER BY name")]

    def take_list_version(self, version: ListVersion) -> bool:
        """Keep another store's version of a list if it is later than the one here (by moment, then id; inside
        `transaction()`); whether it was kept."""
        here = self.conn.execute("SELECT changed, uid FROM word_lists WHERE name = ?", (version.name,)).fetchone()
        if here is not None and (version.changed, version.uid) <= (float(here[0]), str(here[1] or "")):
            return False
        self._write_version(version)
        return True

    def _keep_version(self, name: str, words: str | None, now: float) -> None:
        """A version made here: later than the one it replaces, even if this machine's clock is behind."""
        with self.transaction():
            row = self.conn.execute("SELECT changed FROM word_lists WHERE name = ?", (name,)).fetchone()
            changed = now if row is None else max(now, float(row[0]) + 0.001)
            self._write_version(ListVersion(name, new_uid(), words, changed))

    def _write_version(self, version: ListVersion) -> None:
        self.conn.execute(
            "INSERT INTO word_lists (name, words, added, uid, changed, removed, seq) VALUES (?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (name) DO UPDATE SET words = excluded.words, added = excluded.added, uid = excluded.uid, "
            "changed = excluded.changed, removed = excluded.removed, seq = excluded.seq",
            (version.name, version.words or "", version.changed, version.uid, version.changed,
             int(version.words is None), self._next_seq()))
