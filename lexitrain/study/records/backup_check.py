"""What a progress backup must hold before any of it is written: every value and every reference.

A backup is JSON anyone can edit (or a sync can cut short), and a value the
store would take as it is (a card state of 7, a negative stability, a due
date of "tomorrow", a daily limit of "ten") breaks `daily` on every later
run. So the whole file is checked first, list by list and row by row, and the
first bad value is named by where it is (`cards #12: state is 7 (expected 0 to
3)`); only a file that passes is merged. Nothing unknown gets in either: a key or
field lexitrain never writes, a question kind or a setting lexitrain does not
have, a lexicon name no lexicon can have or another spelling of one here
(names compare without case: the cards would split in two), each named. A
lexicon not built here yet is let in: a backup is restored on a new machine
before its NWL or CSW is built.
"""

from __future__ import annotations

import json
import math
from dataclasses import fields
from typing import Any, Callable

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import known_lexicons
from lexitrain.lexicon.store import check_name
from lexitrain.study.quiz.kinds.base import kind_names
from lexitrain.study.quiz.preferences import PREFIX as DISPLAY, Preferences, WAIT_AFTER_LAST
from lexitrain.study.quiz.scheduler import FSRS_PARAMETERS, LEITNER_DAYS, MODES, Scheduling, scheduling_id
from lexitrain.study.records.stakes import DAILY_ORDER_SETTING, DAILY_ORDERS, is_daily_order
from lexitrain.study.store import CardRow
from lexitrain.study.store.connection import SQL_INT_MAX
from lexitrain.study.store.positions import DAILY_POSITIONS, Filters
from lexitrain.study.store.uids import UID
from lexitrain.study.store.word_lists import LIST_NAME, MOST_LIST_CHARS, words_ok


class BadBackup(Exception):
    """The first bad value of a backup, said by where it is; `where`: (list, row number from 1), or
    ("settings", its name), or None for the file's shape."""

    def __init__(self, message: str, where: tuple[str, int | str] | None = None) -> None:
        super().__init__(message)
        self.where = where


Rule = tuple[str, str, bool, Callable[[Any], bool], str]  # field, type, None allowed, in range, expected range
_ANY: Callable[[Any], bool] = lambda value: True  # noqa: E731
_NOT_NEGATIVE: Callable[[Any], bool] = lambda value: value >= 0  # noqa: E731
_POSITIVE: Callable[[Any], bool] = lambda value: value > 0  # noqa: E731
_NOT_EMPTY: Callable[[Any], bool] = lambda value: value.strip() != ""  # noqa: E731


def _json_object(value: str) -> bool:
    try:
        return isinstance(json.loads(value), dict)
    except ValueError:
        return False


#: Each list's fields: (field, "int" | "number" | "text" | "bool", None allowed, in range, what is expected).
_CARD: list[Rule] = [
    ("lexicon", "text", False, _NOT_EMPTY, "a lexicon's name"), ("kind", "text", False, _NOT_EMPTY, "a kind"),
    ("key", "text", False, _NOT_EMPTY, "a question's key"),
    ("state", "int", False, lambda v: 0 <= v <= 3, "0 to 3"), ("step", "int", True, _NOT_NEGATIVE, "0 or more"),
    ("stability", "number", True, _POSITIVE, "more than 0"),
    ("difficulty", "number", True, lambda v: 1 <= v <= 10, "1 to 10"),
    ("due", "number", True, _NOT_NEGATIVE, "a time after 1970"),
    ("last_review", "number", True, _NOT_NEGATIVE, "a time after 1970"),
    ("cardbox", "int", False, lambda v: 0 <= v < len(LEITNER_DAYS), f"0 to {len(LEITNER_DAYS) - 1}"),
    ("correct", "int", False, _NOT_NEGATIVE, "0 or more"), ("incorrect", "int", False, _NOT_NEGATIVE, "0 or more"),
    ("streak", "int", False, _ANY, "a number"), ("added", "number", False, _NOT_NEGATIVE, "a time after 1970"),
    ("deck", "text", True, _NOT_EMPTY, "a deck's name"), ("suspended", "bool", True, _ANY, "true or false"),
]
_DECK: list[Rule] = [
    ("lexicon", "text", False, _NOT_EMPTY, "a lexicon's name"), ("name", "text", False, _NOT_EMPTY, "a name"),
    ("retention", "number", True, lambda v: 0 < v < 1, "between 0 and 1"),
    ("new_per_day", "int", True, _NOT_NEGATIVE, "0 or more"),
    ("reviews_per_day", "int", True, _NOT_NEGATIVE, "0 or more"),
]
_SESSION: list[Rule] = [
    ("id", "int", False, _ANY, "a number"), ("mode", "text", False, _NOT_EMPTY, "a mode"),
    ("lexicon", "text", False, _NOT_EMPTY, "a lexicon's name"), ("source", "text", False, _ANY, "text"),
    ("started", "number", False, _NOT_NEGATIVE, "a time after 1970"),
    ("ended", "number", True, _NOT_NEGATIVE, "a time after 1970"), ("complete", "bool", True, _ANY, "true or false"),
]
_ANSWER: list[Rule] = [
    ("session", "int", False, _ANY, "a session's id"), ("mode", "text", False, _NOT_EMPTY, "a mode"),
    ("lexicon", "text", True, _NOT_EMPTY, "a lexicon's name"), ("kind", "text", False, _NOT_EMPTY, "a kind"),
    ("key", "text", False, _NOT_EMPTY, "a question's key"), ("given", "text", False, _ANY, "text"),
    ("correct", "bool", False, _ANY, "true or false"), ("was_new", "bool", False, _ANY, "true or false"),
    ("at", "number", False, _NOT_NEGATIVE, "a time after 1970"), ("ms", "int", True, _NOT_NEGATIVE, "0 or more"),
    ("rating", "int", True, lambda v: 1 <= v <= 4, "1 to 4"), ("late_mark", "bool", True, _ANY, "true or false"),
    ("uid", "text", True, lambda v: UID.fullmatch(v) is not None, "32 hex digits"),
    ("scheduling", "text", True, lambda v: UID.fullmatch(v) is not None, "a way of scheduling's id"),
]
_CHALLENGE: list[Rule] = [
    ("session", "int", False, _ANY, "a session's id"), ("date", "text", False, _NOT_EMPTY, "a date"),
    ("kind", "text", False, _NOT_EMPTY, "a kind"), ("lexicon", "text", False, _NOT_EMPTY, "a lexicon's name"),
    ("score", "int", False, _NOT_NEGATIVE, "0 or more"), ("total", "int", False, _POSITIVE, "1 or more"),
    ("seconds", "number", False, _NOT_NEGATIVE, "0 or more"), ("completed", "bool", False, _ANY, "true or false"),
    ("retake", "bool", True, _ANY, "true or false"),
]
_POSITION: list[Rule] = [
    ("lexicon", "text", False, _NOT_EMPTY, "a lexicon's name"), ("cgp", "text", False, _NOT_EMPTY, "a CGP line"),
    ("source", "text", False, _ANY, "text"), ("top_score", "int", False, _NOT_NEGATIVE, "0 or more"),
    ("top_play", "text", False, _ANY, "a play"), ("top_word", "text", False, _ANY, "a word"),
    ("top_length", "int", False, _NOT_NEGATIVE, "0 or more"), ("bingo", "bool", False, _ANY, "true or false"),
    ("blank", "bool", False, _ANY, "true or false"), ("margin", "int", False, _ANY, "a number"),
    ("top_rank", "int", True, _POSITIVE, "1 or more"), ("plays", "int", False, _NOT_NEGATIVE, "0 or more"),
    ("added", "number", False, _NOT_NEGATIVE, "a time after 1970"),
    ("analysis", "text", True, _json_object, "an analysis as JSON text"),
]
_PLAN: list[Rule] = [("lexicon", "text", False, _NOT_EMPTY, "a lexicon's name"),
                     ("name", "text", False, _NOT_EMPTY, "a name")]
_WORD_LIST: list[Rule] = [
    ("name", "text", False, lambda v: LIST_NAME.fullmatch(v) is not None, "a list's name"),
    ("uid", "text", False, lambda v: UID.fullmatch(v) is not None, "32 hex digits"),
    ("words", "text", True, words_ok, f"a list's words (no control characters, at most {MOST_LIST_CHARS:,})"),
    ("changed", "number", False, _NOT_NEGATIVE, "a time after 1970"),
]
_LISTS: dict[str, list[Rule]] = {"cards": _CARD, "decks": _DECK, "sessions": _SESSION, "answers": _ANSWER,
                                 "challenges": _CHALLENGE, "positions": _POSITION, "plans": _PLAN, "lists": _WORD_LIST}
#: Fields a list's rows hold beside those checked above (an answer's card before it, a plan's steps).
_UNCHECKED = {"answers": {"before"}, "plans": {"spec"}}
#: A backup file's keys.
_KEYS = {"format", "version", "exported", "settings", "schedulings", *_LISTS}
#: Fields an older backup may lack (the merge gives them their old meaning).
_OPTIONAL = {("cards", "deck"), ("cards", "suspended"), ("sessions", "complete"), ("answers", "rating"), ("answers", "late_mark"),
             ("answers", "uid"), ("answers", "scheduling"), ("challenges", "retake"), ("positions", "analysis")}

#: The settings the study commands read as numbers or names: (type, in range, what is expected).
_SETTINGS: dict[str, tuple[str, Callable[[Any], bool], str]] = {
    "limit:new": ("int", _NOT_NEGATIVE, "0 or more"), "limit:reviews": ("int", _NOT_NEGATIVE, "0 or more"),
    "leech": ("int", _POSITIVE, "1 or more"), "retention": ("number", lambda v: 0.7 <= v <= 0.99, "0.70 to 0.99"),
    "mode": ("text", lambda v: v in MODES, " or ".join(MODES)), "lexicon": ("text", _NOT_EMPTY, "a lexicon's name"),
    WAIT_AFTER_LAST: ("bool", _ANY, "true or false"),
    DAILY_ORDER_SETTING: ("text", is_daily_order, " or ".join(DAILY_ORDERS)),
    FSRS_PARAMETERS: ("object", lambda v: _fsrs_parameters(v), 'FSRS parameters ({"general": [...] or null, "decks": {...}})'),
    **{DISPLAY + f.name: ("bool" if f.type in (bool, "bool") else "text", _ANY, "true or false" if f.type in (bool, "bool")
                          else "text") for f in fields(Preferences)},
}
#: Settings named after a lexicon (`NAME:LEXICON`): a plan's id (set again with `study plan`, not merged),
#: the daily positions.
_LEXICON_SETTINGS: dict[str, tuple[str, Callable[[Any], bool], str]] = {
    "plan": ("int", _ANY, "a plan's id"),
    DAILY_POSITIONS: ("object", lambda v: _daily_positions(v), 'a daily plan ({"per_day": 0 or more, "filters": {...}})'),
}


def check_backup(data: dict[str, Any]) -> None:
    """Raise BadBackup naming the first bad list, row, value or reference; return if all is well."""
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise BadBackup(f"{_named(unknown)} is not a key of a lexitrain progress file")
    lexicons, kinds = {name.casefold(): name for name in known_lexicons()}, set(kind_names())
    settings = data.get("settings", {})
    if not isinstance(settings, dict):
        raise BadBackup('"settings" is not an object')
    for name, value in settings.items():
        _check_setting(name, value, lexicons)
    for name, rules in _LISTS.items():
        rows = data.get(name, [])
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise BadBackup(f'"{name}" is not a list of objects')
        known = {rule[0] for rule in rules} | _UNCHECKED.get(name, set())
        for number, row in enumerate(rows, start=1):
            unknown = sorted(set(row) - known)
            if unknown:
                raise BadBackup(f"{name} #{number}: {_named(unknown)} is not a field of its {name}", (name, number))
            problem = None if row.get("lexicon") is None else _lexicon_problem(row["lexicon"], lexicons)
            if problem:
                raise BadBackup(f"{name} #{number}: {problem}", (name, number))
            if name in ("cards", "answers") and row.get("kind") not in kinds:
                raise BadBackup(f"{name} #{number}: kind {row.get('kind')!r} is not a question kind lexitrain has",
                                (name, number))
            for field, kind, nullable, in_range, expected in rules:
                if field not in row:
                    if (name, field) in _OPTIONAL:
                        continue
                    raise BadBackup(f"{name} #{number}: {field} is missing", (name, number))
                value = row[field]
                if value is None and nullable:
                    continue
                if not _of_type(value, kind) or not in_range(value):
                    raise BadBackup(f"{name} #{number}: {field} is {value!r} (expected {expected})", (name, number))
    _check_cards(data["cards"] if "cards" in data else [])
    for number, answer in enumerate(data.get("answers", []), start=1):
        if answer["before"] is not None:
            _check_before(answer["before"], f"answers #{number}: before", number)
    check_schedulings(data.get("schedulings", {}))
    _check_references(data)


def _check_setting(name: Any, value: Any, lexicons: dict[str, str]) -> None:
    """A setting lexitrain has, of its type and in its range; one named after a lexicon, of a lexicon here."""
    rule = _SETTINGS.get(name)
    if rule is None and isinstance(name, str) and ":" in name:
        family, _, lexicon = name.rpartition(":")
        if family in _LEXICON_SETTINGS:
            problem = _lexicon_problem(lexicon, lexicons)
            if problem:
                raise BadBackup(f"settings: {name}: {problem}", ("settings", name))
            rule = _LEXICON_SETTINGS[family]
    if rule is None:
        raise BadBackup(f"settings: {name!r} is not a setting lexitrain has", ("settings", name))
    kind, in_range, expected = rule
    if not _of_type(value, kind) or not in_range(value):
        raise BadBackup(f"settings: {name} is {value!r} (expected {expected})", ("settings", name))
    problem = _lexicon_problem(value, lexicons) if name == "lexicon" else None
    if problem:
        raise BadBackup(f"settings: lexicon: {problem}", ("settings", name))


def _fsrs_parameters(value: dict[str, Any]) -> bool:
    """{"general": FSRS's parameters or null, "decks": {deck id: parameters}}, as `study optimize` saves them."""
    import fsrs

    count = len(fsrs.scheduler.DEFAULT_PARAMETERS)

    def parameters(values: Any) -> bool:
        return isinstance(values, list) and len(values) == count and all(_of_type(v, "number") for v in values)

    decks = value.get("decks", {})
    return (set(value) <= {"general", "decks"} and (value.get("general") is None or parameters(value["general"]))
            and isinstance(decks, dict) and all(key.isdigit() and parameters(v) for key, v in decks.items()))


def _daily_positions(value: dict[str, Any]) -> bool:
    """{"per_day": 0 or more, "filters": {a filter of the position quiz: value}}."""
    filters = value.get("filters", {})
    known = {f.name: f.type for f in fields(Filters)}
    return (set(value) <= {"per_day", "filters"} and _of_type(value.get("per_day"), "int") and value["per_day"] >= 0
            and isinstance(filters, dict) and set(filters) <= set(known)
            and all(v is None or _of_type(v, "bool" if "bool" in str(known[k]) else "int" if "int" in str(known[k])
                                          else "text") for k, v in filters.items()))


def _lexicon_problem(name: Any, lexicons: dict[str, str]) -> str | None:
    """Why NAME cannot be a lexicon's here (LEXICONS: the known ones by their folded name), or None."""
    if not isinstance(name, str):
        return f"lexicon {name!r} is not a lexicon's name"
    try:
        check_name(name)
    except LexitrainError:
        return f"lexicon {name!r} is not a lexicon's name (letters, digits, '-' and '_', up to 64)"
    here = lexicons.get(name.casefold(), name)
    return None if here == name else f"lexicon {name!r} is spelled {here!r} here (names compare without case)"


def _named(names: list[str]) -> str:
    return ", ".join(repr(name) for name in names)


def check_setting(name: str, value: Any) -> None:
    """A setting lexitrain has, of its type and in its range (one taken from another store by a sync)."""
    _check_setting(name, value, {name.casefold(): name for name in known_lexicons()})


def check_schedulings(ways: Any) -> None:
    """Every way of scheduling is one (`Scheduling.from_spec`), kept under its own digest."""
    if not isinstance(ways, dict):
        raise BadBackup('"schedulings" is not an object')
    for way, spec in ways.items():
        try:
            Scheduling.from_spec(spec)
        except LexitrainError as exc:
            raise BadBackup(f"schedulings {str(way)[:40]!r}: {exc}", ("schedulings", str(way))) from None
        if scheduling_id(spec) != way:
            raise BadBackup(f"schedulings {str(way)[:40]!r}: not the id of its spec", ("schedulings", str(way)))


def _of_type(value: Any, kind: str) -> bool:
    if kind == "object":
        return isinstance(value, dict)
    if kind == "bool":
        return isinstance(value, bool) or (isinstance(value, int) and value in (0, 1))
    if isinstance(value, bool):
        return False
    if kind == "text":
        return isinstance(value, str)
    if kind == "int":
        return isinstance(value, int) and abs(value) <= SQL_INT_MAX
    return isinstance(value, (int, float)) and math.isfinite(value) and abs(value) <= SQL_INT_MAX


def _check_cards(cards: list[dict[str, Any]]) -> None:
    """A card answered (not new) has a due date, and one in review the memory state a review reads;
    a card is listed once."""
    seen: set[tuple[str, str, str]] = set()
    for number, card in enumerate(cards, start=1):
        name = (card["lexicon"], card["kind"], card["key"])
        if name in seen:
            raise BadBackup(f"cards #{number}: {card['kind']} {card['key']} in {card['lexicon']} is listed twice",
                            ("cards", number))
        seen.add(name)
        # (learning: fsrs makes the memory state at the first review, e.g. a cardbox's unreviewed card)
        needed = {0: (), 1: ("due",)}.get(card["state"], ("due", "stability", "difficulty"))
        for field in needed:
            if card[field] is None:
                raise BadBackup(f"cards #{number}: state {card['state']} (answered) but {field} is null",
                                ("cards", number))


def _check_before(before: Any, where: str, number: int) -> None:
    """An answer's card-before (what an override redoes from) holds a card's values."""
    if not isinstance(before, dict):
        raise BadBackup(f"{where} is {before!r} (expected a card)", ("answers", number))
    unknown = sorted(set(before) - {f.name for f in fields(CardRow)})
    if unknown:
        raise BadBackup(f"{where}: {_named(unknown)} is not a field of a card", ("answers", number))
    for field, kind, nullable, in_range, expected in _CARD:
        if field in ("deck", "suspended"):
            continue
        if field not in before:
            raise BadBackup(f"{where}: {field} is missing", ("answers", number))
        value = before[field]
        if not (value is None and nullable) and (not _of_type(value, kind) or not in_range(value)):
            raise BadBackup(f"{where}: {field} is {value!r} (expected {expected})", ("answers", number))


def _check_references(data: dict[str, Any]) -> None:
    """Every session an answer or challenge names is in the file (once); every deck a card names too; a list
    once."""
    sessions: set[int] = set()
    for number, session in enumerate(data.get("sessions", []), start=1):
        if session["id"] in sessions:
            raise BadBackup(f"sessions #{number}: id {session['id']} is listed twice", ("sessions", number))
        sessions.add(session["id"])
    for name in ("answers", "challenges"):
        for number, row in enumerate(data.get(name, []), start=1):
            if row["session"] not in sessions:
                raise BadBackup(f"{name} #{number}: session {row['session']} is not in the file", (name, number))
    ways = data.get("schedulings", {})
    uids: set[str] = set()
    for number, answer in enumerate(data.get("answers", []), start=1):
        if answer.get("scheduling") is not None and answer["scheduling"] not in ways:
            raise BadBackup(f"answers #{number}: way of scheduling {answer['scheduling']} is not in the file",
                            ("answers", number))
        if answer.get("uid") is not None:
            if answer["uid"] in uids:
                raise BadBackup(f"answers #{number}: id {answer['uid']} is listed twice", ("answers", number))
            uids.add(answer["uid"])
    names: set[str] = set()
    for number, version in enumerate(data.get("lists", []), start=1):
        if version["name"] in names:
            raise BadBackup(f"lists #{number}: the list {version['name']!r} is listed twice", ("lists", number))
        names.add(version["name"])
    decks = {(deck["lexicon"], deck["name"]) for deck in data.get("decks", [])}
    for number, card in enumerate(data.get("cards", []), start=1):
        if card.get("deck") is not None and (card["lexicon"], card["deck"]) not in decks:
            raise BadBackup(f"cards #{number}: deck {card['deck']!r} is not in the file", ("cards", number))
