"""One player's progress in two stores made one, both ways, never losing an answer (`lexitrain sync`).

What is true is what was done: the answers (each with the id it was given where it was given, and the
way of scheduling in force then), the changes made to them after (marks, retractions: an undo), and a
card's events that are no answer (`study.store.history`). A card's schedule is what those make of it
(`study.quiz.replay`). So two stores are made one by the union of their facts: each takes what it lacks
(an answer it has, or has taken back, is never taken again) and makes again every card whose facts
changed. Whichever store syncs first, and however often, two stores that have synced hold the same
facts and so the same cards, and the same cards as one store that had been given every answer in time
order.

What each has to send the other is found by numbers, not by comparing everything: a store numbers each
change as it makes or takes it (`study.store.exchange`), and the store that starts a sync keeps the
last of its own numbers the other has taken (`sent`) and the last of the other's it has taken
(`received`). A sync is two passes over pages of changes, each page taken in one transaction:

1. push: the changes numbered here after `sent`; the other takes each page and says how far its own
   numbers reach when nothing else came between (then what it numbered is this page: `received` moves
   past it, so it is not sent back); `sent` moves once the other has taken the page;
2. pull: the other's changes numbered after `received`, taken here; `received` moves in the same
   transaction (and `sent` past what this store numbered taking them, when nothing else came between).

A sync cut anywhere (either store killed, the network gone) leaves each store as it was before a page
or as after it, and its numbers with it; the next sync sends again what may not have been taken, which
the other takes as nothing. A page is checked whole before anything of it is written: a damaged or
foreign one is refused in one line, nothing written.
"""

from __future__ import annotations

import json
import platform
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.quiz.replay import replay_cards
from lexitrain.search.saved import replace_searches, saved_searches
from lexitrain.study.quiz.scheduler import FSRS_PARAMETERS, utc_now
from lexitrain.study.records.backup_check import (
    ANSWER, ANY, CHALLENGE, DECK, NOT_NEGATIVE, POSITION, SCHEDULE, SESSION, WORD_LIST, BadBackup, Rule, check_row,
    check_schedulings, check_setting, fields_of, is_uid, moment, shown, text_within,
)
from lexitrain.study.store import PeerRow, ProgressStore
from lexitrain.study.store.connection import FILE_NAME
from lexitrain.study.store.exchange import PAGE, CardName, FactKey, home_peer
from lexitrain.study.store.history import CHANGES, EVENT_ORDER, schedule_of
from lexitrain.wording import counted

FORMAT = "lexitrain-changes"
#: 2: word lists travel (a page of version 1 holds none; a lexitrain of version 1 refuses a page of 2 rather than
#: take it without its lists and move past them).
VERSION = 2
#: Settings that stay in their store: the default lexicon names one compiled on that machine.
LOCAL_SETTINGS = frozenset({"lexicon"})
#: The setting naming a lexicon's active plan (by its id here; by its name as it travels).
PLAN_SETTING = "plan:"
#: The most ranges of its own facts a store asks the other not to send back (a sync pushing more pages than this
#: gets the rest back, taken as nothing).
MOST_SKIPPED = 32
#: Between the steps of a sync, the name of the step just done (a test stops a sync there).
Step = Callable[[str], None]


class Peer(Protocol):
    """The other store of a sync: the club's store of the member over HTTP, or another store here."""

    def identity(self) -> dict[str, Any]:
        """{"store": its id, "last": its latest number}."""
        ...

    def take(self, page: dict[str, Any], since: int) -> dict[str, Any]:
        """Take a page of this store's changes; {"answers": new there, "cards": changed there, "through": its
        latest number when nothing but this page came after `since`, else None, "taken": the first and last of
        its numbers taking the page used (None: none; a lexitrain before 2 does not say)}."""
        ...

    def changes(self, since: int, limit: int, skip: Sequence[tuple[int, int]] = ()) -> dict[str, Any]:
        """A page of its changes numbered after `since`, less the facts numbered in the ranges SKIP (this store
        sent them)."""
        ...

    def done(self, home: str, label: str, through: int) -> None:
        """Note that the store HOME (called LABEL: its machine's name) took this store's changes up to THROUGH
        (what the other store shows of when it last synced, and what waits to go)."""
        ...


@dataclass(frozen=True)
class Synced:
    """What a sync did: answers the other store took, answers taken here, cards changed here."""

    sent: int
    received: int
    cards: int

    def to_json(self) -> dict[str, int]:
        return {"sent": self.sent, "received": self.received, "cards": self.cards}

    def said(self, other: str) -> str:
        """What the sync with OTHER did, in words."""
        return (f"synced with {other}: sent {counted(self.sent, 'answer')}, received "
                f"{counted(self.received, 'answer')}; {counted(self.cards, 'card')} rescheduled here")


def sync(store: ProgressStore, peer: Peer, name: str, step: Step | None = None, label: str | None = None) -> Synced:
    """Make this store and PEER one (see the module's note); NAME is what this store calls the peer, LABEL
    what the peer may call this store (its machine's name)."""
    step = step or (lambda _: None)
    remote = peer.identity()
    row = store.peer(name)
    if row is None or row.store != remote["store"]:  # (first time, or another store behind the name: all of it)
        row = PeerRow(name, remote["store"], 0, 0, None)
    if remote["last"] < row.received:  # (the other store went back: restored from a backup)
        row = replace(row, received=0)
    step("identified")
    sent = received = cards = 0
    echoed: list[tuple[int, int]] = []  # (the other store's numbers for what it took of this one's: not sent back)
    while True:
        page = page_since(store, row.sent, PAGE)
        if _empty(page):
            row = replace(row, sent=page["through"])
            break
        reply = peer.take(page, row.received)
        step("pushed")
        row = replace(row, sent=page["through"], received=row.received if reply["through"] is None else reply["through"])
        with store.transaction():
            store.save_peer(row)
        sent += int(reply["answers"])
        if isinstance(reply.get("taken"), list) and len(echoed) < MOST_SKIPPED:
            echoed.append((int(reply["taken"][0]), int(reply["taken"][1])))
        step("saved")
        if not page["more"]:
            break
    while True:
        page = peer.changes(row.received, PAGE, echoed)
        check_page(page, "the other store's changes")
        if page["store"] != row.store:
            raise LexitrainError(f"the other store's changes come from another store ({page['store']}, not "
                                 f"{row.store}): nothing was taken")
        step("pulled")
        with store.transaction():
            before = store.last_seq()
            taken, changed = _take(store, page)
            row = replace(row, received=page["through"], sent=store.last_seq() if before == row.sent else row.sent)
            store.save_peer(row)
        received += taken
        cards += changed
        step("taken")
        if not page["more"]:
            break
    with store.transaction():
        store.save_peer(replace(row, synced=utc_now().timestamp()))
    peer.done(store.store_id(), label or platform.node() or "a home", row.received)
    return Synced(sent, received, cards)


def take_page(store: ProgressStore, page: Any, since: int | None = None, name: str = "the page") -> dict[str, Any]:
    """Take a page another store sent (checked first: one line and nothing written if it is damaged),
    in one transaction; what it changed here, and this store's latest number when nothing but the page
    was numbered after `since` (None: something was, or no `since` was given)."""
    check_page(page, name)
    with store.transaction():
        before = store.last_seq()
        answers, cards = _take(store, page)
        after = store.last_seq()
        through = after if since is not None and before == since else None
    return {"answers": answers, "cards": cards, "through": through, "taken": [before + 1, after] if after > before else None}


def page_document(page: dict[str, Any]) -> dict[str, Any]:
    """A page of changes as it travels (its format and version first)."""
    return {"format": FORMAT, "version": VERSION, **page}


def page_since(store: ProgressStore, since: int, limit: int = PAGE, skip: Sequence[tuple[int, int]] = ()
               ) -> dict[str, Any]:
    """A page of this store's changes after number SINCE (less the facts numbered in the ranges SKIP), as it
    travels: settings that name a plan or a deck by this store's ids name them by what they are (the other
    store's ids differ); the player's default lexicon stays (it names a lexicon compiled on this machine)."""
    page = store.changes_since(since, limit, skip)
    page["settings"] = [{**setting, "value": value} for setting in page["settings"]
                        if (value := _setting_out(store, setting["name"], setting["value"])) is not None]
    return page_document(page)


def _setting_out(store: ProgressStore, name: str, value: Any) -> Any:
    """A setting's value as it travels (None: it does not travel)."""
    if name in LOCAL_SETTINGS:
        return None
    if name.startswith(PLAN_SETTING):
        plan = store.plan(value) if isinstance(value, int) else None
        return None if plan is None else plan.name
    if name == FSRS_PARAMETERS and isinstance(value, dict):
        decks = {}
        for deck_id, parameters in value.get("decks", {}).items():
            deck = store.deck_by_id(int(deck_id))
            if deck is not None:
                decks[json.dumps([deck.lexicon, deck.name])] = parameters
        return {**value, "decks": decks}
    return value


def _setting_in(store: ProgressStore, name: str, value: Any) -> Any:
    """A travelling setting's value as this store keeps it (None: it names a plan or deck not here)."""
    if name.startswith(PLAN_SETTING):
        return store.plan_named(name[len(PLAN_SETTING):], value) if isinstance(value, str) else None
    if name == FSRS_PARAMETERS and isinstance(value, dict):
        decks = {}
        for named, parameters in value.get("decks", {}).items():
            lexicon, deck_name = json.loads(named)
            deck = store.deck(lexicon, deck_name)
            if deck is not None:
                decks[str(deck.id)] = parameters
        return {**value, "decks": decks}
    return value


def _take(store: ProgressStore, page: dict[str, Any]) -> tuple[int, int]:
    """Keep a checked page and make again each card whose facts it changed (inside a transaction):
    (answers new here, cards whose schedule changed). Settings are taken last (they may name the page's
    plans and decks)."""
    taken = store.take_changes(page)
    for setting in page["settings"]:
        if setting["name"] not in LOCAL_SETTINGS:
            value = _setting_in(store, setting["name"], setting["value"])
            if value is not None:
                store.take_setting(setting["name"], value, setting["changed"])
    return taken.answers, remake(store, taken.cards)


def sync_home(store: ProgressStore, peer: Peer, name: str) -> Synced:
    """A home's sync with the club (what `lexitrain sync` and the local app's Sync run): the home's saved
    searches noted as changes first, written back from what the sync made of them after."""
    note_searches(store)
    done = sync(store, peer, name)
    write_searches(store)
    return done


def sync_homes(store: ProgressStore, folder: Path) -> Synced:
    """This home and the home in FOLDER (another player's home folder of the same player: a second
    account, a USB stick, a synced folder) made one, as with the club: that home is the other store, and
    the saved searches of both are noted first and written back after."""
    path = folder / FILE_NAME
    if not path.is_file():
        raise LexitrainError(f"{folder}: no lexitrain home there (no {FILE_NAME})")
    if path.resolve() == store.path.resolve():
        raise LexitrainError(f"{folder} is this home: nothing to sync")
    with ProgressStore(path) as other:
        note_searches(store)
        note_searches(other, folder)
        done = sync(store, StorePeer(other), home_peer(str(folder.resolve())), label=str(store.path.parent.resolve()))
        write_searches(other, folder)
        write_searches(store)
    return done


def note_searches(store: ProgressStore, home: Path | None = None) -> None:
    """Note in the store each change made to a home's saved searches (searches.json, this home's or the
    home folder HOME's) since the last sync, as made now, so that it travels: a search added or changed,
    or deleted."""
    kept = store.kept_searches()
    file = saved_searches(home)
    now = utc_now().timestamp()
    with store.transaction():
        for name, text in file.items():
            known, when = kept.get(name, (None, 0.0))
            if known != text:
                store.take_search(name, text, max(now, when + 0.001))
        for name, (known, when) in kept.items():
            if known is not None and name not in file:
                store.take_search(name, None, max(now, when + 0.001))


def write_searches(store: ProgressStore, home: Path | None = None) -> None:
    """A home's saved searches (this home's, or the home folder HOME's) as the store now knows them (after
    a sync took another's)."""
    replace_searches({name: conditions for name, (conditions, _) in sorted(store.kept_searches().items())
                      if conditions is not None}, home)


def remake(store: ProgressStore, names: dict[CardName, FactKey]) -> int:
    """Make these cards again from their facts, each from the earliest that changed (together: `replay_cards`);
    how many changed schedule (a card forgotten counts)."""
    ids = store.card_ids_named(names)
    made = replay_cards(store, {card_id: names[name] for name, card_id in ids.items()})
    return sum(state is None or schedule_of(state) != schedule_of(card) for card, state in made.values())


def _empty(page: dict[str, Any]) -> bool:
    return not any(page[name] for name in _LISTS)


class StorePeer:
    """Another store in this process as a sync's peer (the club serves a member's store the same way)."""

    def __init__(self, store: ProgressStore) -> None:
        self.store = store

    def identity(self) -> dict[str, Any]:
        return {"store": self.store.store_id(), "last": self.store.last_seq()}

    def take(self, page: dict[str, Any], since: int) -> dict[str, Any]:
        return take_page(self.store, page, since)

    def changes(self, since: int, limit: int, skip: Sequence[tuple[int, int]] = ()) -> dict[str, Any]:
        return page_since(self.store, since, limit, skip)

    def done(self, home: str, label: str, through: int) -> None:
        note_home(self.store, home, label, through)


def note_home(store: ProgressStore, home: str, label: str, through: int) -> None:
    """Note in STORE that the home HOME (machine LABEL) took its changes up to THROUGH, now (what STORE took
    of HOME's, when it synced with it itself, stays)."""
    with store.transaction():
        known = store.peer(home_peer(label))
        received = known.received if known is not None and known.store == home else 0
        store.save_peer(PeerRow(home_peer(label), home, through, received, utc_now().timestamp()))


def check_page(page: Any, name: str) -> None:
    """Refuse (one line naming NAME and the first bad value) a page that is not lexitrain's changes, is of a
    newer version, or holds a value or reference a store would not take."""
    try:
        _check(page)
    except BadBackup as exc:
        raise LexitrainError(f"{name}: damaged or foreign changes ({exc}); nothing was written") from None


def _check(page: Any) -> None:
    """A page of changes: lexitrain's, of a version this one reads, each row by its rules, and what its rows
    refer to in the page itself."""
    if not isinstance(page, dict) or page.get("format") != FORMAT:
        raise BadBackup(f'not lexitrain\'s changes (no "format": "{FORMAT}")')
    if not isinstance(page.get("version"), int) or page["version"] > VERSION:
        raise BadBackup(f"written by a newer lexitrain (version {page.get('version')!r}): upgrade this one")
    if page["version"] < 2:
        page.setdefault("lists", [])
    check_row(page, _PAGE, "the page")
    check_schedulings(page["schedulings"])
    for list_name, rules in _LISTS.items():
        for number, row in enumerate(page[list_name], start=1):
            check_row(row, rules, f"{list_name} #{number}")
    sessions = {s["id"] for s in page["sessions"]}
    _check_answers(page, sessions)
    for number, change in enumerate(page["changes"], start=1):
        if (change["what"] == "retract") != (change["value"] is None):
            raise BadBackup(f"changes #{number}: value {change['value']!r} for a {change['what']}")
    for number, event in enumerate(page["events"], start=1):
        _check_event(event, number)
    for number, attempt in enumerate(page["attempts"], start=1):
        if attempt["session"] not in sessions:
            raise BadBackup(f"attempts #{number}: session {attempt['session']} is not in the page")
    for setting in page["settings"]:
        _check_setting(setting["name"], setting["value"])


def _check_answers(page: dict[str, Any], sessions: set[Any]) -> None:
    """Each answer's session and way of scheduling is in the page, and its kind one this lexitrain asks."""
    known = _known_kinds({a["kind"] for a in page["answers"]})
    for number, answer in enumerate(page["answers"], start=1):
        if answer["session"] not in sessions:
            raise BadBackup(f"answers #{number}: session {answer['session']} is not in the page")
        if answer["scheduling"] is not None and answer["scheduling"] not in page["schedulings"]:
            raise BadBackup(f"answers #{number}: way of scheduling {answer['scheduling']} is not in the page")
        if answer["kind"] not in known:
            raise BadBackup(f"answers #{number}: kind {answer['kind']!r} is not one this lexitrain asks")


def _check_setting(name: str, value: Any) -> None:
    """A setting as it travels: a plan named by its name, a deck's FSRS parameters by [lexicon, deck]
    (`_setting_out`), every other as a backup holds it."""
    if name.startswith(PLAN_SETTING):
        check_setting(name, 1)  # (the setting's name, a lexicon's)
        if not (isinstance(value, str) and text_within(200)(value)):
            raise BadBackup(f"settings: {name} is {shown(value)} (expected a plan's name)")
        return
    if name == FSRS_PARAMETERS and isinstance(value, dict) and isinstance(value.get("decks"), dict):
        decks = value["decks"]
        for named in decks:
            try:
                lexicon, deck = json.loads(named)
                check_row({"lexicon": lexicon, "deck": deck}, _DECK_NAMED, "a deck")
            except (ValueError, TypeError, BadBackup):
                raise BadBackup(f"settings: {name}: {shown(named)} is not [lexicon, deck]") from None
        value = {**value, "decks": {str(n): parameters for n, parameters in enumerate(decks.values(), 1)}}
    check_setting(name, value)


def _known_kinds(kinds: set[str]) -> set[str]:
    """Those of KINDS this lexitrain asks (each looked up alone: a page names one or two)."""
    known = set()
    for kind in kinds:
        try:
            new_kind(kind)
        except LexitrainError:
            continue
        known.add(kind)
    return known


def _pairs(v: Any) -> bool:
    """A plan's cards: [kind, key] pairs."""
    return isinstance(v, list) and all(isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                                       and isinstance(pair[1], str) and text_within(40)(pair[0])
                                       and text_within(2000)(pair[1]) for pair in v)


_SEQ: Rule = ("id", "int", False, NOT_NEGATIVE, "a number")
_SEARCH_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
_LEXICON, _KIND, _KEY = fields_of(ANSWER, "lexicon", "kind", "key")
_UID: Rule = ("uid", "text", False, is_uid, "32 hex digits")
#: A page's rows: those a backup holds too by the backup's rules (`backup_check`), the others beside them.
_LISTS: dict[str, list[Rule]] = {
    "sessions": SESSION,
    "answers": [_UID, *fields_of(ANSWER, "session", "mode", "kind", "key", "given", "correct", "at", "ms", "rating",
                                 "late_mark", "scheduling"), ("card", "bool", False, ANY, "true or false")],
    "changes": [_UID, ("answer", "text", False, is_uid, "an answer's id"),
                ("what", "text", False, lambda v: v in CHANGES, " or ".join(CHANGES)),
                ("value", "int", True, lambda v: v in (0, 1), "0, 1 or null"), moment("at")],
    "events": [_UID, _LEXICON, _KIND, _KEY, ("what", "text", False, lambda v: v in EVENT_ORDER, " or ".join(EVENT_ORDER)),
               moment("at"), ("body", "object", False, ANY, "an object")],
    "settings": [("name", "text", False, text_within(200), "a setting's name"), ("value", "any", True, ANY, "a value"),
                 moment("changed")],
    "decks": [*DECK, moment("created"), moment("changed")],
    "places": [_LEXICON, _KIND, _KEY, ("deck", "text", True, text_within(200), "a deck's name or null"),
               ("suspended", "bool", False, ANY, "true or false"), moment("changed")],
    "tombstones": [("what", "text", False, lambda v: v == "deck", "deck"),
                   ("name", "list", False, lambda v: len(v) == 2 and all(isinstance(x, str) and text_within(200)(x)
                                                                           for x in v), "[lexicon, name]"),
                   moment("changed")],
    "plans": [_LEXICON, ("name", "text", False, text_within(200), "a plan's name"),
              ("spec", "list", False, lambda v: all(isinstance(step, dict) for step in v), "a list of steps"),
              ("cards", "int", False, NOT_NEGATIVE, "0 or more"), moment("created"), moment("changed"),
              ("queue", "list", False, _pairs, "[kind, key] pairs")],
    "attempts": fields_of(CHALLENGE, "session", "date", "kind", "lexicon", "total", "seconds", "completed"),
    "positions": POSITION,
    "searches": [("name", "text", False, lambda v: _SEARCH_NAME.fullmatch(v) is not None, "a search's name"),
                 ("conditions", "text", True, text_within(2000, empty=True), "a search's conditions or null"),
                 moment("changed")],
    "lists": WORD_LIST,
}
_PAGE: list[Rule] = [
    ("store", "text", False, is_uid, "a store's id"), ("through", "int", False, NOT_NEGATIVE, "a change's number"),
    ("more", "bool", False, ANY, "true or false"), ("schedulings", "object", False, ANY, "an object"),
    *((name, "list", False, ANY, "a list") for name in _LISTS),
]
#: A deck named in a setting: [lexicon, deck].
_DECK_NAMED: list[Rule] = [_LEXICON, ("deck", "text", False, text_within(200), "a deck's name")]


def _check_event(event: dict[str, Any], number: int) -> None:
    body = event["body"]
    rules = {"set": SCHEDULE, "due": [moment("due"), *fields_of(SCHEDULE, "last_review")], "forget": []}[event["what"]]
    if set(body) != {rule[0] for rule in rules}:
        raise BadBackup(f"events #{number}: a {event['what']} holds {sorted(body)} (expected {sorted(r[0] for r in rules)})")
    check_row(body, rules, f"events #{number}")
