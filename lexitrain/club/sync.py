"""The club's side of `lexitrain sync`: a member's store as the other store of their homes' syncs.

A member's progress lives in their own store here (`club.member_stores`); each of their homes makes
itself and that store one (`study.records.sync`, which the home drives). The club answers three calls,
behind the member's session (and, for the write, the session's CSRF token), in plain JSON, so a
browser can speak them as the command does:

- `GET /api/sync`: the store's id and the number of its latest change;
- `POST /api/sync/push` `{"since": N, "page": {...}}`: a page of the home's changes, checked whole and
  taken in one transaction (a damaged page: 400, nothing written); what it added, and the store's
  latest number when nothing but this page came after N;
- `GET /api/sync/changes?since=N&limit=M&skip=A-B,...`: a page of the store's changes numbered after N, less
  the answers, changes and events numbered A to B (what it took of this home's pages in this sync, as the
  push answered: `taken`);
- `POST /api/sync/done` `{"home": ID, "label": NAME, "through": N}`: the home (its store's id, its
  machine's name) took the store's changes up to N: what `/study` shows of when the member last synced,
  and of the answers given on the club that wait to go.

What the club owes the store (a challenge's finish, a wall's finds) is paid before each call reads it.
"""

from __future__ import annotations

from typing import Any

from lexitrain.study.records.sync import FORMAT, MOST_SKIPPED, VERSION, StorePeer, note_home, take_page
from lexitrain.study.store import ProgressStore
from lexitrain.study.store.exchange import PAGE
from lexitrain.study.store.uids import UID
from lexitrain.web.edge import Refused

#: The largest number a request may name (a store's changes are numbered from 1).
_MOST = 2**62


def identity(store: ProgressStore) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, **StorePeer(store).identity()}


def push(store: ProgressStore, data: dict[str, Any]) -> dict[str, Any]:
    """Take a page of a home's changes (see the module's note)."""
    since = data.get("since")
    if isinstance(since, bool) or not isinstance(since, int) or not 0 <= since <= _MOST:
        raise Refused(400, "'since' is missing or not a change's number")
    if "page" not in data:
        raise Refused(400, "'page' is missing (a page of changes)")
    return take_page(store, data["page"], since, "the pushed changes")


def changes(store: ProgressStore, since: str | None, limit: str | None, skip: str | None = None) -> dict[str, Any]:
    """A page of the store's changes numbered after SINCE, at most LIMIT, less the facts numbered in the ranges
    SKIP (all as the query gives them)."""
    after = _number("since", since, 0, _MOST)
    most = PAGE if limit is None else _number("limit", limit, 1, PAGE)
    return StorePeer(store).changes(after, most, _ranges(skip))


def _ranges(text: str | None) -> list[tuple[int, int]]:
    """`A-B,C-D` as ranges of change numbers (at most MOST_SKIPPED of them)."""
    if not text:
        return []
    parts = text.split(",")
    if len(parts) > MOST_SKIPPED:
        raise Refused(400, f"'skip' names more than {MOST_SKIPPED} ranges")
    ranges = []
    for part in parts:
        first, _, last = part.partition("-")
        low, high = _number("skip", first, 1, _MOST), _number("skip", last, 1, _MOST)
        if low > high:
            raise Refused(400, f"'skip': {part[:40]!r} is not a range (first-last)")
        ranges.append((low, high))
    return ranges


def done(store: ProgressStore, data: dict[str, Any]) -> dict[str, Any]:
    """Note that a home synced (see the module's note)."""
    home, label, through = data.get("home"), data.get("label"), data.get("through")
    if not isinstance(home, str) or UID.fullmatch(home) is None:
        raise Refused(400, "'home' is missing or not a store's id")
    if not isinstance(label, str) or not label.strip() or len(label) > 100 or not label.isprintable():
        raise Refused(400, "'label' is missing or not a machine's name (1-100 characters)")
    if isinstance(through, bool) or not isinstance(through, int) or not 0 <= through <= _MOST:
        raise Refused(400, "'through' is missing or not a change's number")
    note_home(store, home, label.strip(), through)
    return {"noted": True}


def _number(name: str, text: str | None, low: int, high: int) -> int:
    if text is None:
        raise Refused(400, f"'{name}' is missing")
    if not (len(text) <= 19 and text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise Refused(400, f"'{name}' must be a whole number from {low} to {high}")
    return int(text)
