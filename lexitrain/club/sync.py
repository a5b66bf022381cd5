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
from lexitrain.web.edge import BadRequest, text, whole, whole_text

#: The largest number a request may name (a store's changes are numbered from 1).
_MOST = 2**62


def identity(store: ProgressStore) -> dict[str, Any]:
    return {"format": FORMAT, "version": VERSION, **StorePeer(store).identity()}


def push(store: ProgressStore, data: dict[str, Any]) -> dict[str, Any]:
    """Take a page of a home's changes (see the module's note)."""
    since = _within("since", whole(data, "since"), 0)
    if "page" not in data:
        raise BadRequest("'page' is missing (a page of changes)")
    return take_page(store, data["page"], since, "the pushed changes")


def changes(store: ProgressStore, since: str | None, limit: str | None, skip: str | None = None) -> dict[str, Any]:
    """A page of the store's changes numbered after SINCE, at most LIMIT, less the facts numbered in the ranges
    SKIP (all as the query gives them)."""
    if since is None:
        raise BadRequest("'since' is missing")
    after = _within("since", whole_text(since, "'since'", 0), 0)
    most = _within("limit", whole_text(limit, "'limit'", PAGE), 1, PAGE)
    return StorePeer(store).changes(after, most, _ranges(skip))


def _ranges(text: str | None) -> list[tuple[int, int]]:
    """`A-B,C-D` as ranges of change numbers (at most MOST_SKIPPED of them)."""
    if not text:
        return []
    parts = text.split(",")
    if len(parts) > MOST_SKIPPED:
        raise BadRequest(f"'skip' names more than {MOST_SKIPPED} ranges")
    ranges = []
    for part in parts:
        first, _, last = part.partition("-")
        low, high = (_within("skip", whole_text(end, "'skip'", 0), 1) for end in (first, last))
        if low > high:
            raise BadRequest(f"'skip': {part[:40]!r} is not a range (first-last)")
        ranges.append((low, high))
    return ranges


def done(store: ProgressStore, data: dict[str, Any]) -> dict[str, Any]:
    """Note that a home synced (see the module's note)."""
    home, label = text(data, "home", 100), text(data, "label", 100)
    if UID.fullmatch(home) is None:
        raise BadRequest("'home' is not a store's id")
    if not label.strip() or not label.isprintable():
        raise BadRequest("'label' is not a machine's name (1-100 characters)")
    through = _within("through", whole(data, "through"), 0)
    note_home(store, home, label.strip(), through)
    return {"noted": True}


def _within(name: str, value: int, low: int, high: int = _MOST) -> int:
    """A whole number the edge read, refused outside LOW..HIGH (a store's changes are numbered from 1)."""
    if not low <= value <= high:
        raise BadRequest(f"'{name}' must be a whole number from {low} to {high}")
    return value
