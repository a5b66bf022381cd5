"""Stored positions for the position quiz: where they come from and which make good puzzles.

A position is a board and the rack of the player to move, kept as one CGP
line (the player to move first) in the `positions` table of the progress
database, per lexicon. Its top play is worked out once, when it is stored,
so that puzzle filters (minimum top score, a bingo, a blank, the margin over
the runner-up, the top word's length and probability rank) are plain SQL.
Sources: every turn of recorded games (GCG) with the rack the player had,
greedy self-play games from a seed, and CGP lines from a file. The CGP line
is also the card key of the `position` question kind, so a card carries its
whole position with it.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any, Iterable

from lexitrain.engine.board import Board
from lexitrain.engine.cgp import Position, check_tile_counts, to_cgp
from lexitrain.engine.game import self_play
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.replay import detect_tile_set, replay
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.wordlist import read_text
from lexitrain.study.quiz.kinds.position import KIND, describe, new_generator, read_position, solve
from lexitrain.study.quiz.scheduler import utc_now
from lexitrain.study.records.decks import check_daily_limit
from lexitrain.study.store import CardRow, Filters, ProgressStore, StoredPosition
from lexitrain.study.store.positions import DAILY_POSITIONS

@dataclass
class ImportReport:
    """What a batch of sources gave: positions added, already stored, and what was skipped and why."""

    added: int = 0
    known: int = 0
    no_play: int = 0  # turns whose rack has no legal play (a rack of seven I's, a lone Q): no puzzle
    skipped: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"added": self.added, "already_stored": self.known, "no_play": self.no_play, "skipped": self.skipped}


def store_positions(store: ProgressStore, lex: Lexicon, found: Iterable[StoredPosition], report: ImportReport) -> None:
    """Save solved positions (one transaction per batch); a position already stored is counted, not doubled."""

    batch = list(found)
    added = store.store_positions(lex.name, batch, utc_now().timestamp())
    report.added += added
    report.known += len(batch) - added


def position_for(board: Board, rack: str, scores: list[int]) -> Position:
    """A position with the rack to move first, refused if it holds more tiles than the set."""
    position = Position(board, [rack.upper(), ""], list(scores))
    check_tile_counts(position)
    return position


def _solved(position: Position, source: str, lex: Lexicon, generator: MoveGenerator) -> StoredPosition | None:
    plays = solve(position.board, position.rack, generator)
    return describe(position, source, lex, plays) if plays else None


# -- sources ---------------------------------------------------------------------


def from_games(lex: Lexicon, paths: Iterable[Path], report: ImportReport) -> list[StoredPosition]:
    """Every turn of each recorded game, with the rack the player had. A file
    that does not read (or uses another tile set) is skipped, named in the report."""
    found: list[StoredPosition] = []
    generator = new_generator(lex)
    for path in paths:
        try:
            game = read_gcg(path)
            tiles = detect_tile_set(game)
            if tiles.letters != lex.tiles.letters:
                raise LexitrainError(f"{path}: the game uses {tiles.name} tiles, lexicon {lex.name} uses {lex.tiles.name}")
            turns = replay(game, lex.tiles, lex.layout)
        except LexitrainError as exc:
            report.skipped.append(str(exc))
            continue
        for turn in turns:
            if not turn.rack:
                continue
            where = f"{path}:{turn.event_line}"
            try:
                position = position_for(turn.board, turn.rack, list(turn.scores))
            except LexitrainError as exc:
                report.skipped.append(f"{where}: {exc}")
                continue
            stored = _solved(position, where, lex, generator)
            if stored is None:
                report.no_play += 1
            else:
                found.append(stored)
    return found


def from_cgp_file(lex: Lexicon, path: Path, report: ImportReport) -> list[StoredPosition]:
    """One CGP line per position (blank lines and `#` comments ignored); bad lines are skipped, named."""
    try:
        text = read_text(path, "a file of CGP lines (or a .gcg game)")
    except LexitrainError as exc:
        report.skipped.append(str(exc))
        return []
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        report.skipped.append(f"{path}: no CGP lines in it")
        return []
    found: list[StoredPosition] = []
    generator = new_generator(lex)
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{path}:{number}"
        try:
            position = read_position(line, lex)
        except LexitrainError as exc:
            report.skipped.append(f"{where}: {exc}")
            continue
        stored = _solved(position, where, lex, generator)
        if stored is None:
            report.skipped.append(f"{where}: the rack {position.rack} has no legal play")
        else:
            found.append(stored)
    return found


def self_play_seed(seed: int | str, game: int) -> int:
    """A game's seed from the user's seed: stable everywhere (SHA-256, not `hash()`)."""
    digest = hashlib.sha256(f"lexitrain-positions|{seed}|{game}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def from_self_play(lex: Lexicon, games: int, seed: int | str) -> list[StoredPosition]:
    """The position before every turn of greedy self-play games, reproducible from the seed."""
    found: list[StoredPosition] = []
    generator = new_generator(lex)
    for number in range(1, games + 1):
        _, snapshots = self_play(Board(lex.layout, lex.tiles), generator, self_play_seed(seed, number))
        for turn, snap in enumerate(snapshots, start=1):
            if snap.rack:
                position = position_for(snap.board, snap.rack, _mover_first(snap.scores, turn))
                stored = _solved(position, f"self-play seed {seed} game {number} turn {turn}", lex, generator)
                if stored is not None:
                    found.append(stored)
    return found


def _mover_first(scores: list[int], turn: int) -> list[int]:
    """Self-play scores (player 1 first) with the player to move on `turn` (from 1) first."""
    return scores if turn % 2 else [scores[1], scores[0]]


# -- choosing positions ------------------------------------------------------------


def stored_count(store: ProgressStore, lexicon: str) -> int:
    return store.position_count(lexicon)


def select(store: ProgressStore, lexicon: str, filters: Filters, now: float, limit: int | None = None,
           kind: str = KIND) -> list[StoredPosition]:
    """Matching positions for a quiz asking them as cards of `kind`: those due again first (most
    overdue first), then ones never asked (in the order stored), then the rest by due date."""
    if limit is not None and limit < 1:  # SQLite reads LIMIT -1 as no limit at all
        raise LexitrainError("--limit must be at least 1")
    return store.select_positions(lexicon, kind, filters, now, limit)


def daily_key(lex: Lexicon, day: date, min_score: int = 30) -> str:
    """The day's position puzzle: a greedy self-play game seeded by SHA-256 of
    lexicon and date, and a turn of it chosen by the same hash (the first from
    there whose top play scores at least `min_score`). The same for everyone
    with that lexicon on that date."""
    digest = hashlib.sha256(f"lexitrain-position-of-the-day|{lex.name}|{day.isoformat()}".encode()).digest()
    seed = int.from_bytes(digest[:8], "big")
    generator = new_generator(lex)
    _, snapshots = self_play(Board(lex.layout, lex.tiles), generator, seed)
    turns = [(turn, snap) for turn, snap in enumerate(snapshots, start=1) if snap.rack]
    start = int.from_bytes(digest[8:16], "big") % len(turns)
    best: tuple[int, Position] | None = None
    for offset in range(len(turns)):
        turn, snap = turns[(start + offset) % len(turns)]
        position = position_for(snap.board, snap.rack, _mover_first(snap.scores, turn))
        plays = solve(snap.board, snap.rack, generator)
        if not plays:
            continue
        if plays[0].score >= min_score:
            return to_cgp(position)
        if best is None or plays[0].score > best[0]:
            best = (plays[0].score, position)
    if best is None:
        raise LexitrainError(f"no position of the day could be made for {lex.name} on {day}")
    return to_cgp(best[1])


# -- the daily drill ---------------------------------------------------------------


def daily_plan(store: ProgressStore, lexicon: str) -> dict[str, Any]:
    """How many new positions a day's drill holds and which filters pick them ({"per_day": 0} = none)."""
    return store.setting(f"{DAILY_POSITIONS}:{lexicon}", {"per_day": 0, "filters": {}})


def set_daily_plan(store: ProgressStore, lexicon: str, per_day: int, filters: Filters) -> None:
    check_daily_limit("--per-day", per_day)
    store.set_setting(f"{DAILY_POSITIONS}:{lexicon}", {"per_day": per_day, "filters": asdict(filters)})


def next_daily_position(store: ProgressStore, lexicon: str, since: float, now: float,
                        skip: frozenset[int] = frozenset()) -> CardRow | None:
    """The next new position card for today's drill while fewer than the
    player's daily number were introduced since `since` (local midnight)."""
    plan = daily_plan(store, lexicon)
    if not plan.get("per_day"):
        return None
    done, _ = store.answers_since("daily", lexicon, since, KIND)
    if done >= plan["per_day"]:
        return None
    cgp = store.first_new_position(lexicon, KIND, Filters(**plan.get("filters", {})), skip)
    if cgp is None:
        return None
    return store.card(store.ensure_card(lexicon, KIND, cgp, now))
