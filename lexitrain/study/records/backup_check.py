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
from collections.abc import Collection
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
from lexitrain.study.store.migrations import SCHEDULE_FIELDS
from lexitrain.study.store.positions import DAILY_POSITIONS, Filters
from lexitrain.study.store.uids import UID
from lexitrain.study.store.word_lists import LIST_NAME, MOST_LIST_CHARS, words_ok


class BadBackup(Exception):
    """The first bad value of a backup, said by where it is; `where`: (list, row number from 1), or
    ("settings", its name), or None for the file's shape."""

    def __init__(self, message: str, where: tuple[str, int | str] | None = None) -> None:
        super().__init__(message)
        self.where = where


#: A field's rule, for a backup's rows and a sync's pages alike: (field, "int" | "number" | "text" | "bool" |
#: "object" | "list" | "any", None allowed, in range, what is expected).
Rule = tuple[str, str, bool, Callable[[Any], bool], str]
#: The longest text a field holds (an answer line, a quiz's source): longer is damage, or a hostile page.
LONGEST_TEXT = 100_000
ANY: Callable[[Any], bool] = lambda value: True  # noqa: E731
NOT_NEGATIVE: Callable[[Any], bool] = lambda value: value >= 0  # noqa: E731
POSITIVE: Callable[[Any], bool] = lambda value: value > 0  # noqa: E731


def text_within(longest: int = LONGEST_TEXT, empty: bool = False) -> Callable[[Any], bool]:
    """A text's range: at most LONGEST characters, no NUL, and not blank unless EMPTY."""
    return lambda value: len(value) <= longest and "\x00" not in value and (empty or value.strip() != "")


def moment(field: str) -> Rule:
    """The rule of a field that holds a moment (seconds since 1970)."""
    return (field, "number", False, NOT_NEGATIVE, "a time after 1970")


def is_uid(value: Any) -> bool:
    return UID.fullmatch(value) is not None


def _json_object(value: str) -> bool:
    try:
        return len(value) <= 1 << 20 and isinstance(json.loads(value), dict)
    except ValueError:
        return False


#: Each list's fields (a sync's page holds sessions, decks, answers, attempts, positions and word lists by these
#: rules too).
_LEXICON: Rule = ("lexicon", "text", False, text_within(100), "a lexicon's name")
_KIND: Rule = ("kind", "text", False, text_within(40), "a kind")
_KEY: Rule = ("key", "text", False, text_within(2000), "a question's key")
_MODE: Rule = ("mode", "text", False, text_within(40), "a mode")
_CARD: list[Rule] = [
    _LEXICON, _KIND, _KEY,
    ("state", "int", False, lambda v: 0 <= v <= 3, "0 to 3"), ("step", "int", True, NOT_NEGATIVE, "0 or more"),
    ("stability", "number", True, POSITIVE, "more than 0"),
    ("difficulty", "number", True, lambda v: 1 <= v <= 10, "1 to 10"),
    ("due", "number", True, NOT_NEGATIVE, "a time after 1970"),
    ("last_review", "number", True, NOT_NEGATIVE, "a time after 1970"),
    ("cardbox", "int", False, lambda v: 0 <= v < len(LEITNER_DAYS), f"0 to {len(LEITNER_DAYS) - 1}"),
    ("correct", "int", False, NOT_NEGATIVE, "0 or more"), ("incorrect", "int", False, NOT_NEGATIVE, "0 or more"),
    ("streak", "int", False, ANY, "a number"), moment("added"),
    ("deck", "text", True, text_within(200), "a deck's name"), ("suspended", "bool", True, ANY, "true or false"),
]
DECK: list[Rule] = [
    _LEXICON, ("name", "text", False, text_within(200), "a name"),
    ("retention", "number", True, lambda v: 0 < v < 1, "between 0 and 1"),
    ("new_per_day", "int", True, NOT_NEGATIVE, "0 or more"),
    ("reviews_per_day", "int", True, NOT_NEGATIVE, "0 or more"),
]
SESSION: list[Rule] = [
    ("id", "int", False, ANY, "a number"), _MODE, _LEXICON, ("source", "text", False, text_within(empty=True), "text"),
    moment("started"), ("ended", "number", True, NOT_NEGATIVE, "a time after 1970"),
    ("complete", "bool", True, ANY, "true or false"),
]
ANSWER: list[Rule] = [
    ("session", "int", False, ANY, "a session's id"), _MODE,
    ("lexicon", "text", True, text_within(100), "a lexicon's name"), _KIND, _KEY,
    ("given", "text", False, text_within(empty=True), "text"),
    ("correct", "bool", False, ANY, "true or false"), ("was_new", "bool", False, ANY, "true or false"),
    moment("at"), ("ms", "int", True, NOT_NEGATIVE, "0 or more"),
    ("rating", "int", True, lambda v: 1 <= v <= 4, "1 to 4"), ("late_mark", "bool", True, ANY, "true or false"),
    ("uid", "text", True, is_uid, "32 hex digits"), ("scheduling", "text", True, is_uid, "a way of scheduling's id"),
]
CHALLENGE: list[Rule] = [
    ("session", "int", False, ANY, "a session's id"), ("date", "text", False, text_within(10), "a date"), _KIND,
    _LEXICON, ("score", "int", False, NOT_NEGATIVE, "0 or more"), ("total", "int", False, POSITIVE, "1 or more"),
    ("seconds", "number", False, NOT_NEGATIVE, "0 or more"), ("completed", "bool", False, ANY, "true or false"),
    ("retake", "bool", True, ANY, "true or false"),
]
POSITION: list[Rule] = [
    _LEXICON, ("cgp", "text", False, text_within(2000), "a CGP line"),
    ("source", "text", False, text_within(empty=True), "text"), ("top_score", "int", False, NOT_NEGATIVE, "0 or more"),
    ("top_play", "text", False, text_within(200, empty=True), "a play"),
    ("top_word", "text", False, text_within(100, empty=True), "a word"),
    ("top_length", "int", False, NOT_NEGATIVE, "0 or more"), ("bingo", "bool", False, ANY, "true or false"),
    ("blank", "bool", False, ANY, "true or false"), ("margin", "int", False, ANY, "a number"),
    ("top_rank", "int", True, POSITIVE, "1 or more"), ("plays", "int", False, NOT_NEGATIVE, "0 or more"),
    moment("added"), ("analysis", "text", True, _json_object, "an analysis as JSON text"),
]
_PLAN: list[Rule] = [_LEXICON, ("name", "text", False, text_within(200), "a name")]
WORD_LIST: list[Rule] = [
    ("name", "text", False, lambda v: LIST_NAME.fullmatch(v) is not None, "a list's name"),
    ("uid", "text", False, is_uid, "32 hex digits"),
    ("words", "text", True, words_ok, f"a list's words (no control characters, at most {MOST_LIST_CHARS:,})"),
    moment("changed"),
]
_LISTS: dict[str, list[Rule]] = {"cards": _CARD, "decks": DECK, "sessions": SESSION, "answers": ANSWER,
                                 "challenges": CHALLENGE, "positions": POSITION, "plans": _PLAN, "lists": WORD_LIST}
#: Fields a list's rows hold beside those checked above (an answer's card before it, a plan's steps).
_UNCHECKED = {"answers": {"before"}, "plans": {"spec"}}
#: A backup file's keys.
_KEYS = {"format", "version", "exported", "settings", "schedulings", *_LISTS}
#: Fields an older backup may lack (the merge gives them their old meaning).
_OPTIONAL = {("cards", "deck"), ("cards", "suspended"), ("sessions", "complete"), ("answers", "rating"), ("answers", "late_mark"),
             ("answers", "uid"), ("answers", "scheduling"), ("challenges", "retake"), ("positions", "analysis")}

#: The settings the study commands read as numbers or names: (type, in range, what is expected).
_SETTINGS: dict[str, tuple[str, Callable[[Any], bool], str]] = {
    "limit:new": ("int", NOT_NEGATIVE, "0 or more"), "limit:reviews": ("int", NOT_NEGATIVE, "0 or more"),
    "leech": ("int", POSITIVE, "1 or more"), "retention": ("number", lambda v: 0.7 <= v <= 0.99, "0.70 to 0.99"),
    "mode": ("text", lambda v: v in MODES, " or ".join(MODES)), "lexicon": ("text", text_within(100), "a lexicon's name"),
    WAIT_AFTER_LAST: ("bool", ANY, "true or false"),
    DAILY_ORDER_SETTING: ("text", is_daily_order, " or ".join(DAILY_ORDERS)),
    FSRS_PARAMETERS: ("object", lambda v: _fsrs_parameters(v), 'FSRS parameters ({"general": [...] or null, "decks": {...}})'),
    **{DISPLAY + f.name: ("bool" if f.type in (bool, "bool") else "text", ANY, "true or false" if f.type in (bool, "bool")
                          else "text") for f in fields(Preferences)},
}
#: Settings named after a lexicon (`NAME:LEXICON`): a plan's id (set again with `study plan`, not merged),
#: the daily positions.
_LEXICON_SETTINGS: dict[str, tuple[str, Callable[[Any], bool], str]] = {
    "plan": ("int", ANY, "a plan's id"),
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
        _check_list(name, rules, data.get(name, []), lexicons, kinds)
    _check_cards(data["cards"] if "cards" in data else [])
    for number, answer in enumerate(data.get("answers", []), start=1):
        if answer["before"] is not None:
            _check_before(answer["before"], f"answers #{number}: before", number)
    check_schedulings(data.get("schedulings", {}))
    _check_references(data)


def _check_list(name: str, rules: list[Rule], rows: Any, lexicons: dict[str, str], kinds: set[str]) -> None:
    """One of the backup's lists: objects holding only their fields, each of a lexicon here and (a card's, an
    answer's) of a question kind lexitrain has, and each field by its rule."""
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise BadBackup(f'"{name}" is not a list of objects')
    known = {rule[0] for rule in rules} | _UNCHECKED.get(name, set())
    optional = {field for n, field in _OPTIONAL if n == name}
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
        check_row(row, rules, f"{name} #{number}", (name, number), optional)


def check_row(row: Any, rules: list[Rule], where: str, at: tuple[str, int] | None = None,
              optional: Collection[str] = ()) -> None:
    """A row (a backup's, a sync page's) against its rules: an object holding each field (but those OPTIONAL), each
    null where null is allowed, else of its type and in its range. BadBackup names WHERE (`answers #3`) and the
    first bad field; AT is where it is, for a rescue."""
    if not isinstance(row, dict):
        raise BadBackup(f"{where} is not an object", at)
    for field, kind, nullable, in_range, expected in rules:
        if field not in row:
            if field in optional:
                continue
            raise BadBackup(f"{where}: {field} is missing", at)
        value = row[field]
        if value is None and nullable:
            continue
        if not _of_type(value, kind) or not in_range(value):
            raise BadBackup(f"{where}: {field} is {shown(value)} (expected {expected})", at)


def fields_of(rules: list[Rule], *names: str) -> list[Rule]:
    """The rules of these fields, in this order (a sync page's rows hold some of a backup's fields)."""
    by_name = {rule[0]: rule for rule in rules}
    return [by_name[name] for name in names]


def shown(value: Any) -> str:
    """A value as a message shows it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
        raise BadBackup(f"settings: {name} is {shown(value)} (expected {expected})", ("settings", name))
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
    if kind == "any":
        return True
    if kind == "object":
        return isinstance(value, dict)
    if kind == "list":
        return isinstance(value, list)
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
        raise BadBackup(f"{where} is {shown(before)} (expected a card)", ("answers", number))
    unknown = sorted(set(before) - {f.name for f in fields(CardRow)})
    if unknown:
        raise BadBackup(f"{where}: {_named(unknown)} is not a field of a card", ("answers", number))
    check_row(before, [rule for rule in _CARD if rule[0] not in ("deck", "suspended")], where, ("answers", number))


#: A card's schedule (`SCHEDULE_FIELDS`): a card's fields, as a sync's `set` event holds them.
SCHEDULE: list[Rule] = fields_of(_CARD, *SCHEDULE_FIELDS)


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
