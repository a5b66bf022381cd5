"""A word wall: many questions on show at once, answered by typing words in any order (Aerolith's Wordwalls).

A wall runs a `Session` round after round: each round shows up to `size` of
the list's questions (`questions 51-100 of 500`), and after the whole list the
questions missed in it are asked the same way, round after round (`missed
list: questions 1-50 of 120`), then the wall is done. Inside a
round every guess is routed to the question it answers; a question is decided
the moment its last word is found (recorded right and rescheduled at once),
and when the round ends -- time up or given up -- every question still open is
recorded as missed with the words found in it. So a player who walks away
loses nothing already typed beyond the open questions, and those are saved
by whichever comes first: the give-up the page sends as it closes, the
deadline (checked at every call), or `finish`.

The wall owns the round's clock: it takes over the session's (a clock can be
injected, so a test moves time instead of waiting) and its deadline is final:
a guess after it ends the round instead of counting. Faces only show the
wall's state and pass on what the player types; "mark missed / mark correct"
on the end screen is the session's override.

What a face draws of a wall (`cell_view`, `round_view`, `solutions_view`) is one shape whoever keeps the
round: this module's `Wall`, and the club's challenge attempts and shared tables, which keep theirs in the
club's database; the one page script (web/static/wall.js) draws them all.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Sequence

from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.rows import WordRow
from lexitrain.search.execute import rows_for_words
from lexitrain.study.quiz.kinds.base import LETTERS, Question
from lexitrain.study.quiz.session import Item, Outcome, Session, Summary, Timers
from lexitrain.tiles import BLANK

SIZE = 50

#: What a guess turned out to be.
CORRECT = "correct"  # a word of an open question, not found before
ALREADY = "already"  # found before in this round
WRONG = "wrong"  # answers no question on the wall
ENDED = "ended"  # the round is over (its time ran out): nothing counted


@dataclass
class Cell:
    """One question on the wall: the words found in it so far, the wrong guesses that spelled its tiles."""

    question: Question
    shown_at: float
    tiles: tuple[str, ...] = ()  # the prompt's tiles, for a face to reorder (multi-letter tiles whole)
    found: list[str] = field(default_factory=list)
    wrong: int = 0
    outcome: Outcome | None = None  # set once decided (and recorded)

    @property
    def solved(self) -> bool:
        return len(self.found) == len(self.question.expected)

    def to_json(self) -> dict[str, Any]:
        return cell_view(self.question, self.tiles, self.found, wrong=self.wrong,
                         correct=None if self.outcome is None else self.outcome.correct)


@dataclass(frozen=True)
class Guess:
    """The verdict on one typed word, and the question it went to (None for a wrong word)."""

    word: str
    verdict: str
    cell: Cell | None = None

    def to_json(self) -> dict[str, Any]:
        return {"word": self.word, "verdict": self.verdict, "cell": self.cell.to_json() if self.cell else None}


@dataclass
class Round:
    """One round of the wall: its cells, which part of the list they are, and how it ended."""

    number: int
    first: int  # 1-based place of its first question in the list (in the missed list for a missed round)
    last: int  # and of its last (questions that cannot be cells included)
    total: int  # questions in the list (or in the missed list)
    missed_pass: bool
    cells: list[Cell]
    deadline: float | None
    ended: bool = False
    timed_out: bool = False
    gave_up: bool = False
    left: bool = False  # ended by `finish` (the player left): its untouched questions stay unscored
    elsewhere: int = 0  # questions of its stretch of the list asked another way (a board, a word to judge)

    @property
    def correct(self) -> int:
        return sum(1 for c in self.cells if c.outcome is not None and c.outcome.correct)


#: What a round of the wall is, but for its cells.
_ROUND_FIELDS = ("number", "first", "last", "total", "missed_pass", "deadline", "ended", "timed_out", "gave_up", "left",
                 "elsewhere")


class Wall:
    """A session asked as walls of up to `size` questions, each round `seconds` long (None: untimed)."""

    def __init__(self, session: Session, *, size: int = SIZE, seconds: float | None = None,
                 clock: Callable[[], float] = time.monotonic, missed_round: bool = True) -> None:
        if size < 1:
            raise LexitrainError(f"a wall holds at least one question, not {size}")
        self.session = session
        self.size = size
        self.seconds = session.timers.round if seconds is None else seconds
        Timers(round=self.seconds)  # the same check of the number as the terminal's --round-time
        self.clock = clock
        # The wall keeps time from here: the session measures each answer on the wall's clock
        # and no longer ends anything itself (a question shown stays open until the round ends).
        session.clock = clock
        session.started = session.asked_at = clock()
        session.timers = Timers()
        self.items: list[Item] = list(session.items)
        self.missed_round = missed_round
        self.taken = 0  # items of the list handed to rounds so far
        self.round: Round | None = None  # the round on the wall (the last one started)
        self.rounds_played = 0
        self.right: set[str] = set()  # questions of the list decided right (marked so included)
        self.missed: list[Question] = []  # questions of the list decided wrong, for the missed rounds
        self.missed_list: list[Question] | None = None  # what the missed rounds ask, fixed when they start
        self.missed_taken = 0  # questions of the missed list handed to rounds so far
        self.summary: Summary | None = None  # set when the wall is done
        self._index: dict[str, Cell] = {}  # expected word -> the open cell it answers

    # -- kept between requests ---------------------------------------------------------

    def saved(self) -> dict[str, Any]:
        """What carries the wall on in another request or process (its session's too): JSON's types only. The
        round on the wall is kept whole; of the rounds before it, what the missed rounds need."""
        current = self.round
        return {"taken": self.taken, "rounds_played": self.rounds_played, "right": sorted(self.right),
                "missed": [q.saved() for q in self.missed],
                "missed_list": None if self.missed_list is None else [q.saved() for q in self.missed_list],
                "missed_taken": self.missed_taken, "summary": None if self.summary is None else asdict(self.summary),
                "session": self.session.saved(), "round": None if current is None else {
                    **{name: getattr(current, name) for name in _ROUND_FIELDS},
                    "cells": [{"question": c.question.saved(), "shown_at": c.shown_at, "tiles": list(c.tiles),
                               "found": c.found, "wrong": c.wrong,
                               "outcome": None if c.outcome is None else c.outcome.saved()} for c in current.cells]}}

    def restore(self, saved: dict[str, Any]) -> None:
        """Carry on where `saved` was taken (the wall made again over its session made again by its request)."""
        self.session.restore(saved["session"])
        self.taken, self.rounds_played, self.right = saved["taken"], saved["rounds_played"], set(saved["right"])
        self.missed = [Question.from_saved(q) for q in saved["missed"]]
        self.missed_list = None if saved["missed_list"] is None else [Question.from_saved(q)
                                                                      for q in saved["missed_list"]]
        self.missed_taken = saved["missed_taken"]
        self.summary = None if saved["summary"] is None else Summary(**saved["summary"])
        kept = saved["round"]
        if kept is None:
            return
        going = not kept["ended"]
        cells = [Cell(self.session.rebuilt(c["question"]) if going and c["outcome"] is None
                      else Question.from_saved(c["question"]), c["shown_at"], tuple(c["tiles"]), list(c["found"]),
                      c["wrong"], None if c["outcome"] is None else Outcome.from_saved(c["outcome"]))
                 for c in kept["cells"]]
        self.round = Round(cells=cells, **{name: kept[name] for name in _ROUND_FIELDS})
        if going:
            self._index = {word: cell for cell in cells for word in cell.question.expected}

    # -- rounds -------------------------------------------------------------------

    @property
    def done(self) -> bool:
        return self.summary is not None

    def has_next(self) -> bool:
        """Is there a round after the current one (more of the list, or of its missed list)?"""
        if self.taken < len(self.items):
            return True
        if self.missed_list is not None:
            return self.missed_taken < len(self.missed_list)
        return self.missed_round and bool(self._missed_now())

    def start_round(self) -> Round:
        """Put the next questions on the wall: the next `size` of the list, else of its missed list."""
        self.tick()
        if self.round is not None and not self.round.ended:
            raise LexitrainError("this round is still going: finish it or give up first")
        if self.done or not self.has_next():
            raise LexitrainError("the wall is done: every round has been played")
        if self.taken < len(self.items):
            first, total, missed_pass = self.taken + 1, len(self.items), False
            cells: list[Cell] = []
            elsewhere = 0
            while self.taken < len(self.items) and len(cells) < self.size:
                question = self.session.ask(self.items[self.taken])
                self.taken += 1
                if question is not None and question.hint == LETTERS:
                    cells.append(self._cell(question))
                elif question is not None:  # a board or a word to judge cannot be a cell: left due for the reviews
                    elsewhere += 1
            last = self.taken
        else:
            if self.missed_list is None:
                self.missed_list = self._missed_now()
            first, total, missed_pass = self.missed_taken + 1, len(self.missed_list), True
            chunk = self.missed_list[self.missed_taken: self.missed_taken + self.size]
            self.missed_taken += len(chunk)
            cells = [self._cell(self.session.rebuilt(q.saved())) for q in chunk]
            elsewhere, last = 0, self.missed_taken
        deadline = None if self.seconds is None else self.clock() + self.seconds
        self.rounds_played += 1
        wall_round = Round(self.rounds_played, first, last, total, missed_pass, cells, deadline, elsewhere=elsewhere)
        self.round = wall_round
        self._index = {word: cell for cell in cells for word in cell.question.expected}
        if not cells:  # nothing in that part of the list could be asked (e.g. words no longer valid)
            self._end_round()
        return wall_round

    def time_left(self) -> float | None:
        """Seconds left in the round (None: untimed or no round going); never below 0."""
        current = self.round
        if current is None or current.ended or current.deadline is None:
            return None
        return max(0.0, current.deadline - self.clock())

    def tick(self) -> None:
        """End the round if its time has run out (every call checks; a face may call it to resync)."""
        current = self.round
        if current is not None and not current.ended and current.deadline is not None \
                and self.clock() >= current.deadline:
            current.timed_out = True
            self.session.summary.timed_out = True
            self._end_round()

    def give_up(self) -> Round:
        """End the round now: every open question is recorded missed, with the words found in it."""
        self.tick()
        current = self._current()
        if not current.ended:
            current.gave_up = True
            self._end_round()
        return current

    def finish(self) -> Summary:
        """End the wall where it is (the player left, the app stops): the session's summary.

        Leaving is stopping: a question of the open round the player typed words into is
        recorded as it stands (every answer given is kept), one they never touched stays
        unscored, as a stopped quiz leaves the question on screen (docs/study.md)."""
        if self.summary is None:
            current = self.round
            if current is not None and not current.ended:
                self.tick()  # a round whose time ran out is decided by its clock
            if current is not None and not current.ended:
                for cell in current.cells:
                    if cell.outcome is None and cell.found:
                        self._decide(cell)
                current.ended = current.left = True
                self._index = {}
            self.summary = self.session.finish()
        return self.summary

    # -- guesses -------------------------------------------------------------------

    def guess(self, text: str) -> Guess:
        """One typed word: routed to the open question it answers, a word found again, or wrong.

        A wrong word that spells the tiles of an open question counts against it (a phony
        tried there). The word that solves a question records that question at once."""
        word = text.strip().upper()
        if not word or len(word.split()) != 1:
            raise LexitrainError("a guess is one word")
        self.tick()
        current = self._current()
        if current.ended:
            return Guess(word, ENDED)
        for cell in current.cells:
            if word in cell.found:
                return Guess(word, ALREADY, cell)
        hit = self._index.get(word)
        if hit is not None and hit.outcome is None and word in self.session.check(hit.question, word).right:
            hit.found.append(word)
            if hit.solved:
                self._decide(hit)
            if all(c.outcome is not None for c in current.cells):
                self._end_round()
            return Guess(word, CORRECT, hit)
        tried = next((c for c in current.cells if c.outcome is None and self._spells(c.question, word)), None)
        if tried is not None:
            tried.wrong += 1
        return Guess(word, WRONG, tried)

    def mark(self, question_id: str, correct: bool) -> Cell:
        """The end screen's "mark correct" (a typo) / "mark missed" (a guess) on a decided question
        of the last round: the session's override, which reschedules the card from before the answer."""
        current = self._current()
        cell = next((c for c in current.cells if c.question.id == question_id), None)
        if cell is None or cell.outcome is None:
            raise LexitrainError(f"{question_id!r} is not a decided question of this round")
        cell.outcome = self.session.override(cell.outcome, correct)
        if not current.missed_pass:
            (self.right.add if cell.outcome.correct else self.right.discard)(cell.question.id)
        return cell

    # -- what a face shows ------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The wall as a face shows it: the round's place in the list, its cells, the time left."""
        self.tick()
        current = self.round
        data: dict[str, Any] = {"title": self.session.title, "done": self.done, "has_next": self.has_next(),
                                "round": None, "time_left": self.time_left()}
        if current is not None:
            data["round"] = round_view(
                [c.to_json() for c in current.cells], number=current.number, first=current.first, last=current.last,
                total=current.total, missed_pass=current.missed_pass, ended=current.ended,
                timed_out=current.timed_out, gave_up=current.gave_up, left=current.left, elsewhere=current.elsewhere)
        if self.summary is not None:
            data["summary"] = self.summary.to_json()
        return data

    def solutions(self) -> list[dict[str, Any]]:
        """The end screen's table: every question of the round with each answer's facts
        (probability, hooks, inner hooks, lexicon symbols, definition) and how it went."""
        return solutions_view(self.session.lex, [(cell.question, cell.to_json()) for cell in self._current().cells])

    # -- inside -------------------------------------------------------------------

    def _current(self) -> Round:
        if self.round is None:
            raise LexitrainError("no round has started on this wall")
        return self.round

    def _cell(self, question: Question) -> Cell:
        return Cell(question, self.clock(), tiles_of(self.session.lex, question))

    def _decide(self, cell: Cell) -> None:
        """Record a question's answer (the words found in it) the moment it is decided."""
        self.session.asked_at = cell.shown_at  # its time counts from when it was put on the wall
        cell.outcome = self.session.answer(cell.question, " ".join(cell.found))
        if not self._current().missed_pass:
            if cell.outcome.correct:
                self.right.add(cell.question.id)
            else:
                self.missed.append(cell.question)

    def _end_round(self) -> None:
        current = self._current()
        for cell in current.cells:
            if cell.outcome is None:
                self._decide(cell)
        current.ended = True
        self._index = {}
        if not self.has_next():
            self.summary = self.session.finish()

    def _missed_now(self) -> list[Question]:
        """The list's questions still missed (a question marked correct since has left it)."""
        return [q for q in self.missed if q.id not in self.right]

    def _spells(self, question: Question, word: str) -> bool:
        """Does the word use exactly the question's tiles (a blank standing for any one)?"""
        tiles = self.session.lex.tiles
        try:
            have = Counter(tiles.tokenize(question.key))
            used = Counter(tiles.tokenize(word))
        except ValueError:
            return False
        blanks = have.pop(BLANK, 0)
        return sum(used.values()) == sum(have.values()) + blanks and sum((used - have).values()) <= blanks \
            and not (have - used)


def tiles_of(lex: Lexicon, question: Question) -> tuple[str, ...]:
    """A question's prompt as tiles, for a face to reorder (multi-letter tiles whole)."""
    try:
        return tuple(lex.tiles.tokenize(question.prompt))
    except ValueError:  # a prompt that is not tiles (none of the built-in kinds)
        return tuple(question.prompt)


def cell_view(question: Question, tiles: Sequence[str], found: Sequence[str], *, wrong: int = 0,
              correct: bool | None = None) -> dict[str, Any]:
    """One question of a wall as a face draws it: its tiles, how many answers it has and the words found in it,
    the wrong guesses that spelled its tiles, and once it is decided (`correct` not None) whether it was right."""
    data: dict[str, Any] = {
        "id": question.id, "alphagram": question.key, "prompt": question.prompt, "tiles": list(tiles),
        "answers": len(question.expected), "found": list(found), "solved": len(found) == len(question.expected),
        "wrong": wrong, "decided": correct is not None,
    }
    if correct is not None:
        data["correct"] = correct
    return data


def round_view(cells: list[dict[str, Any]], *, number: int = 1, first: int = 1, last: int | None = None,
               total: int | None = None, missed_pass: bool = False, ended: bool = False, timed_out: bool = False,
               gave_up: bool = False, left: bool = False, elsewhere: int = 0) -> dict[str, Any]:
    """A round of a wall as a face draws it: its cells (`cell_view`), its place in its list (a round that is
    the whole list by default), how it ended and how many of its questions were right."""
    return {"number": number, "first": first, "last": len(cells) if last is None else last,
            "total": len(cells) if total is None else total, "missed_pass": missed_pass, "ended": ended,
            "timed_out": timed_out, "gave_up": gave_up, "left": left,
            "correct": sum(1 for c in cells if c.get("correct")), "questions": len(cells), "elsewhere": elsewhere,
            "cells": cells}


def solutions_view(lex: Lexicon, cells: Sequence[tuple[Question, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The end screen's table: each question's cell (`cell_view`) with every answer's facts (probability, hooks,
    inner hooks, lexicon symbols, definition) and whether it was found."""
    facts = word_facts(lex, [w for question, _ in cells for w in question.expected])
    return [{**view, "words": [{**facts[w], "found": w in view["found"]} for w in question.expected]}
            for question, view in cells]


def word_facts(lex: Lexicon, words: Sequence[str]) -> dict[str, dict[str, Any]]:
    """What an answer list shows of each word: its alphagram and that alphagram's probability rank
    (the rank `lexitrain search` shows and `--probability` selects), hooks, inner hooks, lexicon
    symbols, definition (only the word itself for one the lexicon no longer has), in one look-up."""
    rows: dict[str, WordRow] = {r["word"]: r for r in rows_for_words(lex, words)}
    facts: dict[str, dict[str, Any]] = {}
    for word in words:
        row = rows.get(word)
        facts[word] = {"word": word} if row is None else {
            "word": word, "alphagram": row["alphagram"], "probability": row["alphagram_rank"],
            "front_hooks": row["front_hooks"], "back_hooks": row["back_hooks"], "inner_front": row["inner_front"],
            "inner_back": row["inner_back"], "symbols": row["symbols"], "definition": row["definition"]}
    return facts
