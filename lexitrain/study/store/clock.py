"""The one clock of study: UTC now, or the moment `LEXITRAIN_NOW` pins (scripts and tests).

It lives in the store's floor because the store names and keeps its backups by the day.
"""

from __future__ import annotations

import os
from datetime import datetime, timezone

from lexitrain.errors import LexitrainError


def utc_now() -> datetime:
    """The current UTC time; `LEXITRAIN_NOW` (ISO 8601) pins it for scripting and tests."""
    pinned = os.environ.get("LEXITRAIN_NOW")
    if pinned:
        try:
            moment = datetime.fromisoformat(pinned)
        except ValueError:
            raise LexitrainError(f"LEXITRAIN_NOW={pinned!r} is not an ISO 8601 date-time") from None
        return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)
    return datetime.now(timezone.utc)
