"""The player's settings: named JSON values (scheduling mode, daily limits, active plans ...)."""

from __future__ import annotations

import json
from typing import Any

from lexitrain.study.store.connection import StoreConnection


class Settings(StoreConnection):
    def setting(self, name: str, default: Any = None) -> Any:
        """A setting's value (raw SQL: read by every study command as it starts)."""
        row = self.conn.execute("SELECT value FROM settings WHERE name = ?", (name,)).fetchone()
        return default if row is None else json.loads(row[0])

    def set_setting(self, name: str, value: Any) -> None:
        with self.transaction():
            self.conn.execute("INSERT INTO settings (name, value) VALUES (?, ?) "
                              "ON CONFLICT (name) DO UPDATE SET value = excluded.value", (name, json.dumps(value)))

    def all_settings(self) -> dict[str, Any]:
        return {name: json.loads(value) for name, value in self.conn.execute("SELECT name, value FROM settings")}

    def add_settings(self, values: dict[str, Any]) -> None:
        """Set the settings not set yet (an imported backup's), leaving those already set as they are."""
        with self.transaction():
            self._insert_all("settings", ({"name": name, "value": json.dumps(value)} for name, value in values.items()),
                             ("name", "value"))
