"""The leak profile: across a player's analysed games, what their mistakes cost, by kind, and the trend by week.

Each game is analysed once (`engine/analysis.py`, the player's turns only:
by equity, or with `sim` by phase as the Mistake Index asks) and the analysis
kept beside the game (`NAME.analysis.json`; one made by simulation replaces
one made by equity, never the other way). Every turn that gave anything up
is one leak of exactly one kind, its cost the win probability and the
points the analysis says it lost; so are three things that are no turn of
the player's, costed by the win probability model at that moment: an
opponent's phony left on the board (the points it kept), a challenge bonus
handed to the opponent, and an overtime penalty (whether it changed the
result). The kinds, in the order a turn is put in the first that fits it:

- `phony-played`: the player's play was a phony and came off (the turn lost);
- `valid-challenged`: the player challenged a valid play (the turn lost under
  the double rule, or the bonus under 5 or 10 points);
- `endgame`: the bag was empty; `pre-endgame`: it held one to seven tiles;
- `missed-bingo`: the best move was a bingo and the move made was not;
- `missed-exchange`: the best move was an exchange and the player played on;
- `hooks`: the best play hooked or extended a word on the board, the move made did not;
- `leave`: the move scored as much as the best one or more: what it kept cost;
- `scoring`: the rest, a move that scored less than the best;
- `phony-missed`: an opponent's phony the player did not challenge;
- `overtime`: a time penalty.

So the kinds add up to the total cost exactly. A profile says each kind's
cost in win probability a turn (the mean over the player's turns: a sum over
a game's turns is no chance of anything and reads past 100% for a weak
player) and in points a game, its share of the total, the trend by ISO week,
and the costliest leaks; `leak_cards.py` turns the top
kinds into the week's study.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from lexitrain.engine.analysis import Analyst, GameReport, SimOptions, win_lost_figures
from lexitrain.engine.board import Board
from lexitrain.engine.cgp import parse_cgp
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.engine.gcg import CHALLENGE_BONUS, PASS, PLAY, TIME_PENALTY, Game as Record, read_gcg
from lexitrain.engine.match import LOST_CHALLENGE, Settings
from lexitrain.engine.play import Play
from lexitrain.engine.replay import Turn, replay
from lexitrain.engine.rules import IllegalPlay, check_play, invalid_words, word_text, words_formed
from lexitrain.engine.win_probability import WinModel, load_win_model
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.lexicon.progress import Progress, quiet
from lexitrain.paths import write_atomically
from lexitrain.study.records.saved_games import SavedGame, read_saved, saved_games
from lexitrain.tiles import RACK_SIZE, Rack

PHONY_PLAYED, VALID_CHALLENGED, ENDGAME, PRE_ENDGAME = "phony-played", "valid-challenged", "endgame", "pre-endgame"
MISSED_BINGO, MISSED_EXCHANGE, HOOKS, LEAVE, SCORING = "missed-bingo", "missed-exchange", "hooks", "leave", "scoring"
PHONY_MISSED, OVERTIME = "phony-missed", "overtime"
KINDS = (MISSED_BINGO, HOOKS, LEAVE, MISSED_EXCHANGE, SCORING, PHONY_PLAYED, PHONY_MISSED, VALID_CHALLENGED,
         PRE_ENDGAME, ENDGAME, OVERTIME)
TITLES = {
    MISSED_BINGO: "missed bingos", HOOKS: "hooks and front extensions missed", LEAVE: "bad leaves kept",
    MISSED_EXCHANGE: "missed exchanges", SCORING: "lower-scoring plays", PHONY_PLAYED: "phonies played (and lost)",
    PHONY_MISSED: "phonies not challenged", VALID_CHALLENGED: "valid words challenged", PRE_ENDGAME: "pre-endgame errors",
    ENDGAME: "endgame errors", OVERTIME: "overtime",
}
#: the analysis kept beside a game, its format
ANALYSIS_FORMAT = 1
BY_EQUITY, BY_SIMULATION = "equity", "simulation"
#: the costliest leaks a profile lists
COSTLIEST = 10


@dataclass
class Leak:
    """One costly moment of a game: its kind, cost (win probability 0..1, points) and what a card can ask."""

    kind: str
    game: str
    turn: int | None
    win: float
    points: float
    move: str = ""  # what was done (GCG notation), or what happened
    best: str = ""  # what the analysis would have done
    cgp: str = ""  # the position before the turn, the player's rack first
    words: list[str] = field(default_factory=list)  # bingos missed, phonies, valid words challenged, words hooked
    lexicon: str = ""
    day: str = ""  # the game's date, ISO


@dataclass
class AnalysedGame:
    """A game's analysis of one player's turns, with what the profile needs besides."""

    name: str
    player: str
    lexicon: str
    day: str
    judged_by: str
    report: dict[str, Any]  # GameReport.to_json()
    record: Record

    def summary(self) -> dict[str, Any]:
        """The player's summary as kept, with the win probability figures a player reads made from its turns (an
        analysis kept by an older lexitrain lacks them)."""
        lost = [t["win_lost"] for t in self.judged_turns()]
        return {**self.report["summary"].get(self.player, {}), **win_lost_figures(lost)}

    def judged_turns(self) -> list[dict[str, Any]]:
        """The player's turns the analysis judged (a turn with a note, a challenge or the like, is not)."""
        return [t for t in self.report["turns"] if t["player"] == self.player and not t["note"]]

    def challenges_lost(self) -> set[int]:
        """The player's turns that were a challenge lost (the review names them: the record has a pass)."""
        lex = open_lexicon(self.lexicon)
        return lost_challenge_turns(self.record, replay(self.record, lex.tiles, lexicon=dawg_for(lex)), self.player)


@dataclass
class LeakProfile:
    player: str
    games: list[AnalysedGame]
    leaks: list[Leak]

    def by_kind(self) -> dict[str, list[Leak]]:
        kinds: dict[str, list[Leak]] = {k: [] for k in KINDS}
        for leak in self.leaks:
            kinds[leak.kind].append(leak)
        return kinds

    def ranked_kinds(self) -> list[str]:
        """The kinds that cost anything, costliest first (win probability, then points)."""
        kinds = self.by_kind()
        costly = [k for k in KINDS if kinds[k]]
        return sorted(costly, key=lambda k: (-sum(x.win for x in kinds[k]), -sum(x.points for x in kinds[k])))

    def to_json(self) -> dict[str, Any]:
        n = len(self.games)
        turns = _turns(self.games)
        kinds = self.by_kind()
        total_win = math.fsum(x.win for x in self.leaks)
        total_points = math.fsum(x.points for x in self.leaks)
        rows = []
        for kind in sorted(KINDS, key=lambda k: (-math.fsum(x.win for x in kinds[k]), KINDS.index(k))):
            win = math.fsum(x.win for x in kinds[kind])
            points = math.fsum(x.points for x in kinds[kind])
            rows.append({"kind": kind, "title": TITLES[kind], "count": len(kinds[kind]),
                         **_costs(win, points, n, turns), "share": round(win / total_win, 4) if total_win else 0.0})
        costliest = sorted(self.leaks, key=lambda x: (-x.win, -x.points))[:COSTLIEST]
        return {"player": self.player, "games": len(self.games),
                "judged_by": sorted({g.judged_by for g in self.games}),
                "total": {**_costs(total_win, total_points, n, turns), "leaks": len(self.leaks), "turns": turns},
                "kinds": rows, "weeks": self.weeks(), "costliest": [asdict(x) for x in costliest],
                "games_analysed": [{"game": g.name, "day": g.day, "judged_by": g.judged_by,
                                    "mistake_index": g.report["summary"].get(g.player, {}).get("mistake_index"),
                                    "estimated_rating": g.report["summary"].get(g.player, {}).get("estimated_rating")}
                                   for g in self.games]}

    def weeks(self) -> list[dict[str, Any]]:
        """Each ISO week's games and costs, oldest first, with its costliest kind."""
        games: dict[str, list[AnalysedGame]] = defaultdict(list)
        for g in self.games:
            games[_week(g.day)].append(g)
        out = []
        for week in sorted(games):
            leaks = [x for x in self.leaks if _week(x.day) == week]
            by: dict[str, float] = defaultdict(float)
            for x in leaks:
                by[x.kind] += x.win
            top = max(by, key=lambda k: by[k]) if by else None
            out.append({"week": week, "games": len(games[week]),
                        **_costs(math.fsum(x.win for x in leaks), math.fsum(x.points for x in leaks),
                                 len(games[week]), _turns(games[week])), "top": top})
        return out


def _turns(games: list[AnalysedGame]) -> int:
    """The turns of GAMES the analysis judged: what a cost a turn is shared over."""
    return sum(len(g.judged_turns()) for g in games)


def _costs(win: float, points: float, games: int, turns: int) -> dict[str, float]:
    """A cost as a player reads it: win probability given up a turn on average (%), points a game; and the win
    probability summed over a game's turns (`win_per_game`, kept for --json readers: no chance of anything).
    No games or turns cost nothing (the shares are over at least one)."""
    games, turns = max(games, 1), max(turns, 1)
    return {"win_per_turn": round(100 * win / turns, 2), "win_per_game": round(100 * win / games, 2),
            "points_per_game": round(points / games, 1)}


def _week(day: str) -> str:
    year, week, _ = date.fromisoformat(day[:10]).isocalendar()
    return f"{year}-W{week:02d}"


# -- analysing the games -----------------------------------------------------------------------


def analysis_path(gcg: Path) -> Path:
    return gcg.with_name(gcg.stem + ".analysis.json")


class Analysts:
    """One analyst per lexicon (and judge) for a batch of games."""

    def __init__(self, sim: bool, iterations: int = 150, threads: int = 1) -> None:
        self.sim = sim
        self.iterations = iterations
        self.threads = threads
        self._made: dict[str, tuple[Lexicon, Analyst]] = {}

    def get(self, lexicon: str) -> tuple[Lexicon, Analyst]:
        if lexicon not in self._made:
            lex = open_lexicon(lexicon)
            options = SimOptions(lex.name, iterations=self.iterations, threads=self.threads) if self.sim else None
            self._made[lexicon] = (lex, Analyst.of_lexicon(lex, options))
        return self._made[lexicon]


def analysed_saved_game(saved: SavedGame, record: Record, analysts: Analysts) -> AnalysedGame:
    """A finished saved game's analysis of the player's turns: the one kept beside it when it is as good
    as asked (made by simulation, or by equity when equity is asked), else made now and kept."""
    path = analysis_path(saved.gcg)
    wanted = BY_SIMULATION if analysts.sim else BY_EQUITY
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        if kept.get("format") == ANALYSIS_FORMAT and (kept["judged_by"] == BY_SIMULATION or wanted == BY_EQUITY):
            return AnalysedGame(saved.gcg.stem, saved.settings.player, saved.settings.lexicon, saved.started[:10],
                                kept["judged_by"], kept["report"], record)
    except (OSError, ValueError, KeyError):
        pass  # none kept yet, or from an older lexitrain: made again
    _, analyst = analysts.get(saved.settings.lexicon)
    report = analyst.game(record, saved.settings.player).to_json()
    write_atomically(path, json.dumps({"format": ANALYSIS_FORMAT, "judged_by": wanted, "report": report}) + "\n")
    return AnalysedGame(saved.gcg.stem, saved.settings.player, saved.settings.lexicon, saved.started[:10], wanted,
                        report, record)


def analysed_file(path: Path, player: str, lexicon: str, analysts: Analysts) -> AnalysedGame:
    """A game from elsewhere (a GCG file), analysed now for the player named (nick or name)."""
    record = read_gcg(path)
    _, analyst = analysts.get(lexicon)
    report: GameReport = analyst.game(record, player)
    nick = next(p.nick for p in record.players if player.lower() in (p.nick.lower(), p.name.lower()))
    day = datetime.fromtimestamp(path.stat().st_mtime, timezone.utc).date().isoformat()
    return AnalysedGame(path.stem, nick, lexicon, day, BY_SIMULATION if analysts.sim else BY_EQUITY,
                        report.to_json(), record)


def saved_analyses(analysts: Analysts, progress: Progress = quiet, home: Path | None = None) -> list[AnalysedGame]:
    """The analyses of every finished saved game (HOME's: a club member's own) (made where missing)."""
    finished = [g for g in saved_games(home) if g.finished]
    out = []
    for number, saved in enumerate(finished, start=1):
        saved, record = read_saved(saved.gcg)
        out.append(analysed_saved_game(saved, record, analysts))
        progress("analysing games", number, len(finished))
    return out


# -- the leaks of one game -------------------------------------------------------------------


def lost_challenge_turns(record: Record, turns: list[Turn], player: str) -> set[int]:
    """The turns of PLAYER's that were a challenge lost under the double rule (a pass noted so)."""
    by_line = {t.event_line: t for t in turns}
    return {by_line[e.line].number for e in record.events
            if e.kind == PASS and e.player == player and LOST_CHALLENGE in e.notes and e.line in by_line}


def game_leaks(game: AnalysedGame, lex: Lexicon, win: WinModel) -> list[Leak]:
    """Every leak of the player's in one analysed game (see the module's docstring)."""
    turns = replay(game.record, lex.tiles, lexicon=dawg_for(lex))
    return _turn_leaks(game, lex, turns) + _phonies_let_stand(game, lex, win, turns) + \
        _event_leaks(game, lex, win, turns)


def _leak(game: AnalysedGame, lex: Lexicon, kind: str, turn: int | None, cost_win: float, points: float,
          **more: Any) -> Leak:
    """A leak of GAME's, its costs floored at nothing (a move that gained is no leak's cost)."""
    return Leak(kind, game.name, turn, max(0.0, cost_win), max(0.0, points), lexicon=lex.name, day=game.day, **more)


def _turn_leaks(game: AnalysedGame, lex: Lexicon, turns: list[Turn]) -> list[Leak]:
    """The player's own turns that cost win chance or points, each classified."""
    lost_challenges = lost_challenge_turns(game.record, turns, game.player)
    challenged = {number: _words_before(turns, number, lex) for number in lost_challenges}
    out = []
    for t in game.report["turns"]:
        if t["note"] or (t["win_lost"] <= 0 and t["points_lost"] <= 0):
            continue
        kind = classify(t, lost_challenges, lex.tiles)
        best = t.get("best_by_win") or {}
        words_of = _words_of(kind, t, best, lex) if kind != VALID_CHALLENGED else challenged[t["turn"]]
        out.append(_leak(game, lex, kind, t["turn"], t["win_lost"], t["points_lost"], move=t["move"],
                         best=f"{best.get('position', '')} {best.get('tiles', '')}".strip(), cgp=t["cgp"],
                         words=words_of))
    return out


def _phonies_let_stand(game: AnalysedGame, lex: Lexicon, win: WinModel, turns: list[Turn]) -> list[Leak]:
    """The opponent's phonies the player did not challenge, each charged to the player's next turn."""
    words = dawg_for(lex)
    reports = {t["turn"]: t for t in game.report["turns"]}
    out = []
    for i, turn in enumerate(turns):
        if turn.player == game.player or turn.kind != PLAY or turn.withdrawn or turn.play is None:
            continue
        phonies = invalid_words(turn.board, turn.play, words)
        following = next((reports.get(t.number) for t in turns[i + 1:] if t.player == game.player), None)
        if not phonies or following is None or following["note"]:
            continue
        chance = _shifted(win, following["cgp"], lex, turn.play.score)
        out.append(_leak(game, lex, PHONY_MISSED, following["turn"], chance, turn.play.score, move=turn.notation,
                         words=phonies, cgp=following["cgp"]))
    return out


def _event_leaks(game: AnalysedGame, lex: Lexicon, win: WinModel, turns: list[Turn]) -> list[Leak]:
    """What no turn of the player's shows: a challenge bonus handed to the opponent, an overtime penalty."""
    reports = {t["turn"]: t for t in game.report["turns"]}
    record = game.record
    out = []
    for event in record.events:
        if event.kind == CHALLENGE_BONUS and event.player != game.player:
            mine = next((reports.get(t.number) for t in turns if t.player == game.player and t.event_line > event.line),
                        None)
            chance = _shifted(win, mine["cgp"], lex, event.score) if mine and not mine["note"] else 0.0
            valid = _words_before(turns, mine["turn"], lex) if mine else []
            out.append(_leak(game, lex, VALID_CHALLENGED, mine["turn"] if mine else None, chance, event.score,
                             move="(challenge)", words=valid))
        if event.kind == TIME_PENALTY and event.player == game.player:
            final = _final_spread(record, game.player)
            changed = _result(final) != _result(final - event.score)  # event.score is negative
            out.append(_leak(game, lex, OVERTIME, None, (_result(final - event.score) - _result(final))
                             if changed else 0.0, -event.score, move=f"(time) {event.score}"))
    return out


def _words_before(turns: list[Any], number: int, lex: Lexicon) -> list[str]:
    """The words the last play before turn NUMBER formed (what the player challenged there)."""
    last = next((t for t in reversed(turns) if t.number < number and t.kind == PLAY and t.play is not None), None)
    if last is None:
        return []
    return [word_text(last.board, w).upper() for w in words_formed(last.board, last.play)]


def classify(t: dict[str, Any], lost_challenges: set[int], tiles: Any) -> str:
    """The kind of one costly turn (the first that fits, in the module docstring's order)."""
    if t["phonies"] and t["withdrawn"]:
        return PHONY_PLAYED
    if t["turn"] in lost_challenges:
        return VALID_CHALLENGED
    if t["bag"] == 0:
        return ENDGAME
    if t["bag"] <= RACK_SIZE:
        return PRE_ENDGAME
    return _kind_against_best(t, tiles)


def _kind_against_best(t: dict[str, Any], tiles: Any) -> str:
    """A costly mid-game turn's kind by what the best move did that the move made did not: a bingo, an exchange,
    a hook; else the leave (the move scored as much) or the score."""
    best = t.get("best_by_win") or {}
    kind = best.get("kind", PLAY)
    made_tiles = t["move"].split()[1] if t["kind"] == PLAY and len(t["move"].split()) == 2 else ""
    if kind == PLAY and _placed(best.get("tiles", ""), tiles) == RACK_SIZE and _placed(made_tiles, tiles) < RACK_SIZE:
        return MISSED_BINGO
    if kind == "exchange" and t["kind"] != "exchange":
        return MISSED_EXCHANGE
    if kind == PLAY and _hooks(t["cgp"], best, tiles) and not (
            t["kind"] == PLAY and _hooks(t["cgp"], {"position": t["move"].split()[0], "tiles": made_tiles}, tiles)):
        return HOOKS
    made_score = t["computed"] if t["kind"] == PLAY and t["computed"] is not None and not t["withdrawn"] else 0
    if t["kind"] in (PLAY, "exchange") and made_score >= best.get("score", 0):
        return LEAVE
    return SCORING


def _placed(text: str, tiles: Any) -> int:
    """Tiles a play written `8D QUIT.` puts down."""
    try:
        return len([t for t in tiles.tokenize(text.replace(".", "").replace("(", "").replace(")", ""))])
    except ValueError:
        return 0


def _hooks(cgp: str, move: dict[str, Any], tiles: Any) -> list[str]:
    """The words on the board a play hooks or extends (a word it adds tiles to at one end only)."""
    position, text = move.get("position", ""), move.get("tiles", "")
    if not position or not text or position == "-":
        return []
    board: Board = parse_cgp(cgp, tiles).board
    try:
        play = check_play(board, Play.from_notation(position, text, tiles))
    except (IllegalPlay, LexitrainError):
        return []
    hooked = []
    for row, col, down, letters, new in words_formed(board, play):
        old = [i for i in range(len(letters)) if not new >> i & 1]
        fresh = [i for i in range(len(letters)) if new >> i & 1]
        if not old or not fresh:
            continue
        if max(fresh) < min(old) or min(fresh) > max(old):  # new tiles only before the old run, or only after it
            dr, dc = (1, 0) if down else (0, 1)
            first, last = min(old), max(old)
            if last - first + 1 == len(old):
                hooked.append("".join(board.text_at(row + dr * i, col + dc * i) for i in old).upper())
    return hooked


def _words_of(kind: str, t: dict[str, Any], best: dict[str, Any], lex: Lexicon) -> list[str]:
    """The words a leak's cards ask: the bingos missed, the phonies played, the words the best play hooked."""
    if kind == MISSED_BINGO:
        found = [b["word"].upper() for b in t.get("missed_bingos", [])]
        return found or ([best["word"].upper()] if best.get("word") else [])
    if kind == PHONY_PLAYED:
        return list(t["phonies"])
    if kind == HOOKS:
        return _hooks(t["cgp"], best, lex.tiles)
    return []


def _shifted(win: WinModel, cgp: str, lex: Lexicon, points: int) -> float:
    """What POINTS more for the player to move are worth in win probability, in the position CGP."""
    position = parse_cgp(cgp, lex.tiles, lex.layout)
    unseen = unseen_tiles(position.board, Rack.parse(lex.tiles, position.rack)).size
    spread = position.scores[0] - position.scores[1]
    return win.win(spread + points, unseen) - win.win(spread, unseen)


def _final_spread(record: Record, player: str) -> int:
    totals: dict[str, int] = {}
    for e in record.events:
        totals[e.player] = e.cumulative
    mine = totals.get(player, 0)
    theirs = max((v for k, v in totals.items() if k != player), default=0)
    return mine - theirs


def _result(spread: int) -> float:
    return 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0


# -- the profile -----------------------------------------------------------------------------


def leak_profile(games: Iterable[AnalysedGame]) -> LeakProfile:
    """The profile of these games' leaks (one player's)."""
    games = list(games)
    leaks: list[Leak] = []
    models: dict[str, tuple[Lexicon, WinModel]] = {}
    for game in games:
        if game.lexicon not in models:
            lex = open_lexicon(game.lexicon)
            models[game.lexicon] = (lex, load_win_model(lex.tiles))
        leaks += game_leaks(game, *models[game.lexicon])
    players = sorted({g.player for g in games})
    return LeakProfile(", ".join(players) or Settings.player, games, leaks)  # (no games: the player's default name)
