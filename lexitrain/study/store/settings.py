"""The player's settings: named JSON values (scheduling mode, daily limits, active plans ...).

Each keeps when it last changed and is numbered as a change (a sync sends it; where two stores changed
one setting, the latest change wins: `exchange`)."""

from __future__ import annotations

import json
from typing import Any

from lexitrain.study.store.clock import utc_now
from lexitrain.study.store.connection import StoreConnection


def _now(changed: float | None) -> float:
    return utc_now().timestamp() if changed is None else changed


class Settings(StoreConnection):
    def setting(self, name: str, default: Any = None) -> Any:
        """A setting's value (raw SQL: read by every study command as it starts)."""
        row = self.conn.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return default if row is None else json.loads(row[0])

    def setting_change(self, name: str) -> tuple[Any, int | None] | None:
        """A setting's value and the number of its last change (None: never set): a face running on sees it set
        again, even to the value it had."""
        row = self.conn.execute("SELECT value, seq FROM settings WHERE name = ?", (name,)).fetchone()
        return None if row is None else (json.loads(row[0]), row[1])

    def set_setting(self, name: str, value: Any, changed: float | None = None) -> None:
        """Set a setting (CHANGED: when; None: now)."""
        with self.transaction():
            self._keep_setting(name, json.dumps(value), _now(changed))

    def take_setting(self, name: str, value: Any, changed: float) -> bool:
        """Take another store's setting if it changed later than this one's (the same moment: the larger
        value, so both stores choose alike); whether it was taken."""
        row = self.conn.execute("SELECT value, changed FROM settings WHERE name = ?", (name,)).fetchone()
        text = json.dumps(value)
        if row is not None and (changed, text) <= (row[1], row[0]):
            return False
        self._keep_setting(name, text, changed)
        return True

    def _keep_setting(self, name: str, text: str, changed: float) -> None:
        self.conn.execute("INSERT INTO settings (name, value, changed, seq) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT (name) DO UPDATE SET value = excluded.value, changed = excluded.changed, "
                          "seq = excluded.seq", (name, text, changed, self._next_seq()))

    def all_settings(self) -> dict[str, Any]:
        return {name: json.loads(value) for name, value in self.conn.execute("SELECT name, value FROM settings")}

    def add_settings(self, values: dict[str, Any]) -> None:
        """Set the settings not set yet (an imported backup's), leaving those already set as they are."""
        with self.transaction():
            for name, value in values.items():
                if self.conn.execute("SELECT 1 FROM settings WHERE name = ?", (name,)).fetchone() is None:
                    self.set_setting(name, value)
