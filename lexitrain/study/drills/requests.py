"""Study requests: what a face asks for (a quiz, the daily drill, a challenge, a position quiz), checked, and the session it starts.

A face (the CLI, the web app) parses its options or its form into a request;
building the request checks it and refuses it with the one-line reason a
player reads. `request.start(store, lex)` then makes the ready `Session`
(reading its questions from the source, the store or the engine), and the
face drives it. Nothing here prints or knows a face; the printed sheets have
their own request, `lexitrain.sheets.request.SheetRequest`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields, is_dataclass, replace
from datetime import date
from pathlib import Path
from typing import Any, Protocol

from lexitrain.engine.leave_table import load_leaves
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.search.execute import rows_for_words
from lexitrain.search.query import check_search_given, parse_query
from lexitrain.search.sources import SkipReport, check_most, described_source, source_blanks
from lexitrain.search.word_files import listed_words
from lexitrain.study.drills import challenge, daily, positions as pos
from lexitrain.study.drills.challenge import not_after_today, parse_day
from lexitrain.study.drills.challenge_sets import set_hash
from lexitrain.study.drills.daily import DayStatus
from lexitrain.study.quiz.grading import SpeedGrades
from lexitrain.study.quiz.kinds.analysed import KIND_BY, MADE_BY
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.quiz.kinds.position import EQUITY, PositionKind, check_order
from lexitrain.study.quiz.kinds.whole_list import source_key
from lexitrain.study.quiz.kinds.words import check_letter_order
from lexitrain.study.quiz.scheduler import load_scheduling, utc_now
from lexitrain.study.quiz.session import Grader, Item, Session, Summary, Timers, saved_plan
from lexitrain.study.quiz.sources import question_keys, question_results
from lexitrain.study.records.cards import leeches
from lexitrain.study.store import Filters, ProgressStore
from lexitrain.wording import counted

#: `--due` with no `--limit` asks every due card (the store asks for a number).
ALL_DUE = 1_000_000
#: The kind of `--whole`: every word of the source typed as one question.
WHOLE_LIST = "whole-list"
#: How a session played from an uploaded list names its source (`upload:NAME`: a list's record reads it).
UPLOAD = "upload:"


class StudyRequest(Protocol):
    """Anything a face can start a session from, and make again to carry a saved one on (`Session.saved`: a
    round kept in the store between requests, `study.drills.open_rounds`)."""

    def start(self, store: ProgressStore, lex: Lexicon) -> Session: ...

    def resume(self, store: ProgressStore, lex: Lexicon, saved: dict[str, Any]) -> Session: ...


def check_grading(flashcard: bool, speed_grades: bool) -> None:
    if flashcard and speed_grades:
        raise LexitrainError("--flashcard and --grade-by-speed: pick one (a flashcard is graded by you)")


def speed_grader(store: ProgressStore, wanted: bool) -> Grader | None:
    return SpeedGrades(store) if wanted else None


@dataclass(frozen=True)
class Words:
    """Words to quiz on: a search, a saved search, a built-in list, a word file or a list the player uploaded into
    their store (the search layer checks, as it reads them, that one is given), narrowed by search `conditions`
    typed on the command (`--length 7 --probability 1-100`; alone they are the source). `skip_invalid`
    leaves out the words of a word file that are not in the lexicon."""

    query: str | None = None
    saved: str | None = None
    builtin: str | None = None
    word_file: Path | None = None
    conditions: tuple[str, ...] = ()
    skip_invalid: bool = False
    upload: str | None = None  # the name of a list kept in the store (`ProgressStore.word_list`)

    def __post_init__(self) -> None:
        check_search_given(self.query)
        if self.skip_invalid and self.word_file is None:
            raise LexitrainError("--skip-invalid goes with --file FILE")
        if self.upload is not None and (self.conditions or any(
                value is not None for value in (self.query, self.saved, self.builtin, self.word_file))):
            raise LexitrainError("a list of yours is a source of its own: no other source or condition with it")
        if self.conditions:
            parse_query(self.conditions)  # a mistyped condition is refused before anything starts

    @property
    def given(self) -> bool:
        return bool(self.conditions) or any(
            value is not None for value in (self.query, self.saved, self.builtin, self.word_file, self.upload))

    def text(self) -> str:
        """The source as the session's title and record name it (conditions after what they narrow)."""
        if self.upload is not None:
            return f"{UPLOAD}{self.upload}"
        named = self.query or self.saved or self.builtin or (str(self.word_file) if self.word_file else "")
        if not self.conditions:
            return named

        return " ".join(part for part in (named, parse_query(self.conditions).text()) if part)

    def described(self) -> str:
        """The source in words, for a title a player reads (`words of 7 to 8 letters`, a list's own title);
        as typed where words say nothing (a search of settings alone)."""
        if self.upload is not None:
            return self.upload
        return described_source(query=self.query, saved=self.saved, builtin=self.builtin, word_file=self.word_file,
                                conditions=self.conditions) or self.text()


@dataclass(frozen=True)
class WholeList:
    """One question: every word of the source typed (a whole-list card, `--whole`)."""

    words: Words


@dataclass(frozen=True)
class Due:
    """The cards due now (any list), each asked in its own kind."""


@dataclass(frozen=True)
class Leeches:
    """The leeches (cards failed again and again, not suspended), each asked in its own kind."""


#: Where a quiz's questions come from: exactly one of these.
QuizSource = Words | WholeList | Due | Leeches


def quiz_source(words: Words, due: bool = False, leeches: bool = False, whole: bool = False) -> QuizSource:
    """The source the `quiz` options name (words, `--due`, `--leeches`, `--whole`), refused in one
    line when they name more than one."""
    if whole and due:
        raise LexitrainError("--whole asks for every word of one list: it takes no --kind and no --due")
    if leeches and (due or words.given):
        raise LexitrainError("--leeches takes no other question source or --kind (each leech is asked in its kind)")
    if due and words.given:
        raise LexitrainError("--due takes no other question source")
    return Due() if due else Leeches() if leeches else WholeList(words) if whole else words


@dataclass(frozen=True)
class QuizRequest:
    """A quiz on one source (see `QuizSource`): words from a search, a saved search, a built-in list
    or a word file; those words as one whole-list question; the cards due; or the leeches."""

    source: QuizSource
    kind: str | None = None  # None: anagram (the due cards and the leeches: each card's own kind)
    minimum: int | None = None  # build questions: the shortest word asked for (None: 2)
    order: str = "alphabetical"  # letter order
    limit: int | None = None
    shuffle: bool = False
    as_listed: bool = False  # keep the source's order (default: probability)
    question_time: float | None = None  # seconds per question (late = missed)
    round_time: float | None = None  # seconds for the whole round
    schedule: bool = True  # False: practice, the cards are not touched
    flashcard: bool = False  # the player reveals the answers and grades each card
    speed_grades: bool = False  # a right typed answer is graded by its speed (study.grading)
    restart: bool = False  # start the round afresh instead of resuming an unfinished one
    most_words: int | None = None  # a source of more words is refused (a club's cap, `Context.most_words`); None: any

    def __post_init__(self) -> None:
        check_grading(self.flashcard, self.speed_grades)
        if self.flashcard and (self.question_time is not None or self.round_time is not None):
            raise LexitrainError("--flashcard is untimed: no --question-time or --round-time")
        if self.kind is not None:
            match self.source:
                case WholeList():
                    raise LexitrainError("--whole asks for every word of one list: it takes no --kind and no --due")
                case Due():
                    raise LexitrainError("--kind does not apply to --due: each due card is asked in its own kind")
                case Leeches():
                    raise LexitrainError(
                        "--leeches takes no other question source or --kind (each leech is asked in its kind)")
        kind = new_kind(self.kind_name)
        if self.minimum is not None and not kind.takes_minimum:
            raise LexitrainError(f"--min is only for build questions (this quiz asks {kind.name} questions)")
        if self.limit is not None and self.limit < 1:  # a negative slice would silently drop the last questions
            raise LexitrainError(f"--limit {self.limit}: expected 1 or more")
        self.timers()
        check_letter_order(self.order)

    @property
    def kind_name(self) -> str:
        return WHOLE_LIST if isinstance(self.source, WholeList) else "anagram" if self.kind is None else self.kind

    def timers(self) -> Timers:
        return Timers(self.question_time, self.round_time)

    def described(self) -> str:
        """What the quiz asks, in words (its title's start)."""
        match self.source:
            case Due():
                return "the cards due"
            case Leeches():
                return "the leeches"
            case WholeList(words):
                return f"every word of {words.described()}"
            case Words() as words:
                return words.described()

    def start(self, store: ProgressStore, lex: Lexicon, skipped: SkipReport | None = None) -> Session:
        """The quiz's questions (cards are made as they are answered), ready to ask; with the
        source's `skip_invalid`, the words of a word file left out are handed to `skipped`."""
        kind_keys, source = self._kind_keys(store, lex, skipped)
        if self.shuffle:
            random.shuffle(kind_keys)
        items = [Item(k, key) for k, key in kind_keys[: self.limit]]
        title = f"{self.described()} · {_questions(len(items))} · {lex.name}"
        resumed = None if isinstance(self.source, Due) or self.restart else _unfinished_round(store, lex, source, items)
        if resumed is None:
            return self._session(store, lex, source, items, title)
        session_id, left = resumed
        answered = len(items) - len(left)
        session = self._session(store, lex, source, left, f"{title} · resumed: {answered} answered, {len(left)} left",
                                session_id, answered)
        session.summary.details["resumed"] = {"answered_before": answered, "round_questions": len(items)}
        return session

    def _kind_keys(self, store: ProgressStore, lex: Lexicon, skipped: SkipReport | None
                   ) -> tuple[list[tuple[str, str]], str]:
        """The source's questions as (kind, key), in its order, and the source as the session names it; a source
        with nothing to ask (no card due, no leech) is refused with what to do."""
        match self.source:
            case Due():
                cards = store.due_cards(lex.name, utc_now().timestamp(), self.limit or ALL_DUE)
                if not cards:
                    raise LexitrainError(f"no cards are due in {lex.name}")
                kind_keys = [(c.kind, c.key) for c in cards]
                return kind_keys, "due"
            case Leeches():
                kind_keys = [(c.kind, c.key) for c in leeches(store, lex.name) if not store.card_place(c.id)[1]]
                if not kind_keys:
                    raise LexitrainError(f"no leeches to drill in {lex.name} (`lexitrain study leeches`)")
                return kind_keys, "leeches"
            case WholeList(words):
                kind_keys = [(WHOLE_LIST, source_key(lex, query=words.query, saved=words.saved, builtin=words.builtin,
                                                     word_file=words.word_file))]
                return kind_keys, kind_keys[0][1]
            case Words(upload=str(name)):
                listed = listed_words(lex, name, uploaded_text(store, name))
                check_most(len(listed), self.most_words, f"list {name!r}")
                keys = question_keys(new_kind(self.kind_name), rows_for_words(lex, listed),
                                     2 if self.minimum is None else self.minimum, not self.as_listed, 2)
                return [(self.kind_name, key) for key in keys], self.source.text()
            case Words() as words:
                report = (skipped or _unreported) if words.skip_invalid else None
                rows = question_results(lex, query=words.query, saved=words.saved, builtin=words.builtin,
                                        word_file=words.word_file, conditions=words.conditions, skipped=report,
                                        most=self.most_words)
                blanks = source_blanks(query=words.query, saved=words.saved, builtin=words.builtin,
                                       word_file=words.word_file, conditions=words.conditions)
                keys = question_keys(new_kind(self.kind_name), rows, 2 if self.minimum is None else self.minimum,
                                     not self.as_listed, blanks)
                return [(self.kind_name, key) for key in keys], words.text()

    def resume(self, store: ProgressStore, lex: Lexicon, saved: dict[str, Any]) -> Session:
        return self._session(store, lex, "", saved_plan(saved), "", saved["id"])

    def _session(self, store: ProgressStore, lex: Lexicon, source: str, items: list[Item], title: str,
                 session_id: int | None = None, answered_before: int = 0) -> Session:
        """`answered_before`: of a round resumed, the questions answered before (a face numbers on from there)."""
        return Session(store, lex, "quiz", source, items, load_scheduling(store) if self.schedule else None,
                       order=self.order, timers=self.timers(), title=title, session_id=session_id,
                       answered_before=answered_before,
                       grader=speed_grader(store, self.speed_grades))


def uploaded_text(store: ProgressStore, name: str) -> str:
    """An uploaded list's text, or a one-line error naming the lists there are."""
    text = store.word_list(name)
    if text is None:
        known = ", ".join(store.word_list_names()) or ("none yet: upload one on the web app's home page, or import "
                                                         "Zyzzyva's saved quizzes")
        raise LexitrainError(f"no list of yours named {name!r} (your lists: {known})")
    return text


def _unreported(lines: list[str]) -> None:
    """No one to tell: the skipped words go unreported."""


def _unfinished_round(store: ProgressStore, lex: Lexicon, source: str, items: list[Item]) -> tuple[int, list[Item]] | None:
    """The last quiz session on this source and the questions it left, when it answered
    some of these questions and nothing else but not all of them (a round to resume, as `daily` does)."""
    last = store.last_session_answers("quiz", lex.name, source)
    if last is None:
        return None
    session_id, answered = last
    left = [item for item in items if (item.kind, item.key) not in answered]
    planned = {(item.kind, item.key) for item in items}
    return (session_id, left) if answered and answered <= planned and left else None


@dataclass(frozen=True)
class DailyRequest:
    """Today's drill: due reviews, then new cards from the study plan, within the player's daily limits."""

    order: str = "alphabetical"
    flashcard: bool = False  # the player reveals the answers and grades each card
    speed_grades: bool = False  # a right typed answer is graded by its speed (study.grading)

    def __post_init__(self) -> None:
        check_letter_order(self.order)
        check_grading(self.flashcard, self.speed_grades)

    def status(self, store: ProgressStore, lex: Lexicon) -> DayStatus:
        """What today's drill still holds."""
        return daily.status(store, lex, daily.load_limits(store))

    def start(self, store: ProgressStore, lex: Lexicon) -> Session:
        """The drill, each card picked after the previous answer is saved; the summary adds the day's counts."""
        return self._session(store, lex)

    def resume(self, store: ProgressStore, lex: Lexicon, saved: dict[str, Any]) -> Session:
        return self._session(store, lex, saved)

    def _session(self, store: ProgressStore, lex: Lexicon, saved: dict[str, Any] | None = None) -> Session:
        limits = daily.load_limits(store)
        stakes = daily.load_stakes(store, lex)
        drill = daily.Drill(store, lex, limits, stakes=stakes, saved=None if saved is None else saved["picked"])

        def closing(summary: Summary) -> dict[str, Any]:
            daily.release(store, drill.holder)
            state = daily.status(store, lex, limits)
            return {"new_today": state.new_done, "reviews_today": state.reviews_done,
                    "new_left": state.new_left, "reviews_left": state.reviews_left}

        return Session(store, lex, daily.MODE, "daily", drill, load_scheduling(store), order=self.order,
                       closing=closing, grader=speed_grader(store, self.speed_grades),
                       session_id=None if saved is None else saved["id"],
                       title=f"daily drill ({lex.name}): up to {limits.new} new, {limits.reviews} reviews"
                             + (", points first" if stakes else ""))


@dataclass(frozen=True)
class DueWallRequest:
    """The cards due now, all asked at once (a word wall): today's review limit holds, the answers count as
    the daily drill's, and each card is leased to the wall so `daily` and Reviews never ask it meanwhile."""

    size: int = 50

    def start(self, store: ProgressStore, lex: Lexicon) -> Session:
        limits = daily.load_limits(store)
        holder = daily.new_holder()
        cards = daily.lease_due(store, lex.name, limits, holder, self.size)
        if not cards:
            state = daily.status(store, lex, limits)
            raise LexitrainError(f"no cards are due in {lex.name} now" if not state.due_now else
                                 f"today's {limits.reviews} reviews are done or held by another drill "
                                 f"({state.due_now} due): `lexitrain study set --reviews N` raises the limit")

        session = self._session(store, lex, [Item(c.kind, c.key, c.id) for c in cards], holder)
        session.title = f"the cards due ({lex.name}): {len(cards)} within today's limit of {limits.reviews} reviews"
        return session

    def resume(self, store: ProgressStore, lex: Lexicon, saved: dict[str, Any]) -> Session:
        return self._session(store, lex, saved_plan(saved), saved["notes"]["holder"], saved["id"])

    def _session(self, store: ProgressStore, lex: Lexicon, items: list[Item], holder: str,
                 session_id: int | None = None) -> Session:
        def closing(summary: Summary) -> dict[str, Any]:
            daily.release(store, holder)
            return {}

        session = Session(store, lex, daily.MODE, "due", items, load_scheduling(store), closing=closing,
                          session_id=session_id)
        session.notes["holder"] = holder
        return session


@dataclass(frozen=True)
class ChallengeRequest:
    """The daily challenge of one kind and date (None: today), timed unless asked otherwise."""

    kind: str = "sevens"
    day: str | None = None  # YYYY-MM-DD
    timed: bool = True

    def __post_init__(self) -> None:
        challenge.check_kind(self.kind)
        self.date()

    def date(self) -> date:
        return not_after_today(parse_day(self.day))

    def start(self, store: ProgressStore, lex: Lexicon) -> Session:
        """The day's alphagrams, with the attempt opened in the history; the summary
        adds the date, kind, lexicon and the personal best (after this attempt)."""
        day = self.date()
        items = challenge.challenge_items(lex, day, self.kind, store)
        session = self._session(store, lex, items)
        challenge.start(store, session.id, lex, day, self.kind, len(items))
        return session

    def resume(self, store: ProgressStore, lex: Lexicon, saved: dict[str, Any]) -> Session:
        return self._session(store, lex, saved_plan(saved), saved["id"])

    def _session(self, store: ProgressStore, lex: Lexicon, items: list[Item], session_id: int | None = None) -> Session:
        day = self.date()
        timers = Timers(round=challenge.check_kind(self.kind).seconds if self.timed else None)

        def closing(summary: Summary) -> dict[str, Any]:
            challenge.finish(store, session.id, summary.seconds, summary.questions == len(items) or summary.timed_out)
            best = challenge.personal_best(store, lex.name, self.kind)
            return {"date": day.isoformat(), "kind": self.kind, "lexicon": lex.name,
                    "personal_best": best.to_json() if best else None, "retake": store.is_retake(session.id),
                    "set": set_hash(items)}

        session = Session(store, lex, challenge.MODE, f"challenge {self.kind} {day}", items, None, timers=timers,
                          closing=closing, title=f"challenge {self.kind} {day} ({lex.name}): {len(items)} alphagrams",
                          session_id=session_id)
        return session


@dataclass(frozen=True)
class PositionQuizRequest:
    """The position quiz: stored positions matching the filters (made by self-play
    from `seed` when none is stored yet), or with `daily` the position of the day."""

    filters: Filters = field(default_factory=Filters)
    limit: int = 10
    daily: bool = False
    day: str | None = None  # with `daily`: YYYY-MM-DD (None: today)
    seed: int = 1
    schedule: bool = True
    by: str = "score"  # "equity": plays ranked and answers judged by equity; "sim" / "endgame": the analysed kinds

    def __post_init__(self) -> None:
        if self.limit < 1:
            raise LexitrainError("--limit must be at least 1")
        if self.by not in KIND_BY:
            check_order(self.by)
        elif self.daily:
            raise LexitrainError(f"--daily asks the top play (or --by equity), not --by {self.by}")
        if self.day is not None and not self.daily:
            raise LexitrainError("--date goes with --daily (the position of that day)")
        if self.daily:
            if self.day is not None:
                not_after_today(parse_day(self.day))  # the puzzle of a day to come is not out yet

    def start(self, store: ProgressStore, lex: Lexicon) -> Session:
        if self.by == EQUITY:
            load_leaves(lex.tiles)  # no model for these tiles: say so now, not skip every question
        if self.by in KIND_BY:
            return self._analysed(store, lex)
        if self.daily:
            day = parse_day(self.day)
            items = [Item(pos.KIND, pos.daily_key(lex, day))]
            source = f"position of the day {day}"
        else:
            if not pos.stored_count(store, lex.name):  # a fresh install: make some at once
                pos.store_positions(store, lex, pos.from_self_play(lex, 1, self.seed), pos.ImportReport())
            found = pos.select(store, lex.name, self.filters, utc_now().timestamp(), self.limit)
            if not found:
                raise LexitrainError(f"no stored position in {lex.name} matches the filters "
                                     "(add more with `lexitrain positions generate` or `positions import`)")
            items = [Item(pos.KIND, p.cgp) for p in found]
            source = "positions"
        by = f", by {self.by}" if self.by == EQUITY else ""
        return self._session(store, lex, source, items, f"{source} ({_questions(len(items))}, {lex.name}{by})")

    def resume(self, store: ProgressStore, lex: Lexicon, saved: dict[str, Any]) -> Session:
        return self._session(store, lex, "", saved_plan(saved), "", saved["id"])

    def _session(self, store: ProgressStore, lex: Lexicon, source: str, items: list[Item], title: str,
                 session_id: int | None = None) -> Session:
        kinds = [] if self.by in KIND_BY else [PositionKind(by=self.by)]
        return Session(store, lex, "quiz", source, items, load_scheduling(store) if self.schedule else None,
                       title=title, kinds=kinds, session_id=session_id)

    def _analysed(self, store: ProgressStore, lex: Lexicon) -> Session:
        """The positions analysed `by` a simulation or the endgame solver (made by `study from-games`),
        asked as cards of their kind: due ones first, then those never asked, then the rest."""

        kind = KIND_BY[self.by]
        found = pos.select(store, lex.name, replace(self.filters, analysed=self.by), utc_now().timestamp(),
                           self.limit, kind)
        if not found:
            raise LexitrainError(f"no position analysed by {self.by} is stored for {lex.name} that matches "
                                 f"(`lexitrain study from-games GAMES {MADE_BY[self.by]}` makes them)")
        items = [Item(kind, p.cgp) for p in found]
        return self._session(store, lex, f"positions by {self.by}", items,
                             f"{kind} positions ({_questions(len(items))}, {lex.name}, by {self.by})")


def _questions(count: int) -> str:
    """`1 question`, `20 questions`: a title's count."""
    return counted(count, "question")


#: The study requests (and what they are made of) a saved round names, by class name.
_SAVED_KINDS: dict[str, type] = {}


def request_saved(request: Any) -> Any:
    """A study request as an open round keeps it (`request_from_saved` makes it again): JSON's types only."""
    if is_dataclass(request) and not isinstance(request, type):
        return {"$": type(request).__name__, **{f.name: request_saved(getattr(request, f.name)) for f in fields(request)}}
    if isinstance(request, Path):
        return {"$": "Path", "path": str(request)}
    if isinstance(request, (list, tuple)):
        return [request_saved(value) for value in request]
    return request


def request_from_saved(data: Any) -> Any:
    """The study request `request_saved` kept (lists read back as the tuples the requests hold)."""
    if isinstance(data, dict):
        name = data["$"]
        if name == "Path":
            return Path(data["path"])
        if not _SAVED_KINDS:
            _SAVED_KINDS.update({cls.__name__: cls for cls in (QuizRequest, Words, WholeList, Due, Leeches, DailyRequest,
                                                               DueWallRequest, ChallengeRequest, PositionQuizRequest,
                                                               Filters)})
        return _SAVED_KINDS[name](**{k: request_from_saved(v) for k, v in data.items() if k != "$"})
    if isinstance(data, list):
        return tuple(request_from_saved(value) for value in data)
    return data
