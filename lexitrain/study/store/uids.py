"""Stable ids for what travels between a player's stores: answers, their changes, card events.

An id is made where the thing happens (the machine's clock in nanoseconds, then 64 random bits: two
machines never make the same one, and one machine's ids grow in the order it makes them, which orders
two answers kept at the same moment by a pinned clock as they were kept) and never changes after, so a store that gets the same answer twice (a sync repeated, a backup
imported again) knows it has it. What was stored before ids existed gets one made from what it is
(`legacy_answer_uid`), so two stores holding the same old answer (one imported the other's backup)
name it alike.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from typing import Any

#: What an id looks like: 32 lowercase hex digits.
UID = re.compile(r"[0-9a-f]{32}")


def new_uid() -> str:
    return f"{time.time_ns():016x}{secrets.token_hex(8)}"


def digest_uid(*parts: Any) -> str:
    """An id made from what a thing is (the same parts, the same id, on every machine): numbers are
    written exactly (a float by its shortest round-trip spelling)."""
    text = json.dumps(parts, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


def legacy_answer_uid(mode: str, lexicon: str, source: str, started: float, kind: str, key: str, at: float,
                      repeat: int = 0) -> str:
    """The id of an answer stored before answers had ids: its session (mode, lexicon, source, start),
    card and moment, the same the backup import always told answers apart by; `repeat` numbers the
    answers that share all of these (a pinned clock), in the order they were stored."""
    return digest_uid("answer", mode, lexicon, source, float(started), kind, key, float(at), repeat)
