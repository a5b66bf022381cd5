"""Word lists a player uploaded, as rows of their store, by name: any process of a club or of the local app
plays them, and they live where the store lives (the player's file, a member's schema), never in a folder
of the serving machine."""

from __future__ import annotations

from lexitrain.study.store.connection import StoreConnection


class WordLists(StoreConnection):
    def keep_word_list(self, name: str, words: str, now: float) -> None:
        """Keep an uploaded list's text under its name (one of that name is replaced)."""
        self.conn.execute("INSERT INTO word_lists (name, words, added) VALUES (?, ?, ?) ON CONFLICT (name) "
                          "DO UPDATE SET words = excluded.words, added = excluded.added", (name, words, now))

    def word_list(self, name: str) -> str | None:
        """An uploaded list's text, None if there is none of that name."""
        row = self.conn.execute("SELECT words FROM word_lists WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def word_list_names(self) -> list[str]:
        return [str(row[0]) for row in self.conn.execute("SELECT name FROM word_lists ORDER BY name").fetchall()]
