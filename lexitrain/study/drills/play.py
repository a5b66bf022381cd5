"""A game against a bot as the faces play it: started or resumed from the home, saved after every move,
and with hidden unseen tiles, tile tracking practice.

The faces (`lexitrain play` in the terminal or as JSON lines, the web app's
Play page) only show what `PlayedGame` says and pass on the player's lines:
the game itself is `engine/match.py`, its files `records/saved_games.py`.
Every move is saved as it is made, so a game stopped any way (the player
quits, the input ends, the window closes, the process is killed) resumes from
its last move with `lexitrain play --resume`. Putting a game away stops its
clock; resuming starts the clock of the side to move again.

With the unseen tiles hidden (`--hide-unseen`), the player is asked for them
at a few moments chosen by the game's seed (about one turn in eight) and
always once when the bag first holds seven tiles or fewer: a `tile-tracking`
question (`study/quiz/kinds/tile_tracking.py`) answered through a quiz session of
its own, so each answer is kept in the progress store, scored tile by tile,
and counted in the statistics (`records/stats.py`).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any, Callable

from lexitrain.engine.match import BOT, PLAYER, Happened, Match, Settings
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.kinds.base import Question, new_kind
from lexitrain.study.quiz.session import Outcome, Session
from lexitrain.study.records.stats import TRACKING_KIND
from lexitrain.study.records.saved_games import SavedGame, find_saved, new_game_path, now_text, read_saved, write_saved
from lexitrain.study.store import ProgressStore
from lexitrain.tiles import RACK_SIZE

#: the chance a turn of the player's (with tiles in the bag) asks for the unseen tiles
TRACK_CHANCE = 0.12
#: the quiz mode tile tracking answers are recorded under
TRACKING = "tracking"


class PlayedGame:
    """One game being played: its match, its saved files, its tile tracking."""

    def __init__(self, store: ProgressStore, match: Match, saved: SavedGame, loaded_events: int | None) -> None:
        self.store = store
        self.match = match
        self.saved = saved
        self._loaded = loaded_events
        self._session: Session | None = None
        self._asked: Question | None = None

    # -- starting and resuming -------------------------------------------------------
    @staticmethod
    def start(store: ProgressStore, lex: Lexicon, settings: Settings,
              now: Callable[[], float] = time.time, home: Path | None = None) -> PlayedGame:
        """A new game, saved at once (the bot's first move too, when it moves first, is made by the face), in
        HOME's games folder (a club member's own; default the data folder's)."""
        match = Match(lex, settings, now=now)
        saved = SavedGame(new_game_path(match.bot.name, home), settings, started=now_text(), bot=match.bot.name)
        game = PlayedGame(store, match, saved, None)
        match.start_turn()
        game.save()
        return game

    @staticmethod
    def resume(store: ProgressStore, name: str | Path | None = None, now: Callable[[], float] = time.time,
               lexicon: Callable[[str], Lexicon] = open_lexicon, live: bool = False) -> PlayedGame:
        """A saved game as it was left (NAME: a file or a name from `lexitrain games`; None: the latest
        unfinished one); its clock runs again for the side to move. LIVE: the game was not put away but is
        being played on (the web app reads it again for each request): the time since it was saved counts
        on the clock of the side whose time ran."""
        saved, record = read_saved(name if isinstance(name, Path) else find_saved(name))
        lex = lexicon(saved.settings.lexicon)
        used = list(saved.used)
        if live and saved.running is not None and not saved.finished:
            used[saved.running] += max(0.0, now() - saved.saved_at)
        match = Match.resume(lex, saved.settings, record, used, now=now)
        game = PlayedGame(store, match, saved, len(record.events))
        match.start_turn()
        return game

    # -- what faces read -------------------------------------------------------------
    @property
    def to_move(self) -> str | None:
        return self.match.to_move

    @property
    def finished(self) -> bool:
        return self.match.finished

    @property
    def name(self) -> str:
        return self.saved.gcg.stem

    def end_json(self) -> dict[str, Any]:
        """The end as `play --jsonl` prints it."""
        return {"scores": self.match.scores, "winner": self.match.winner(), "gcg": str(self.saved.gcg)}

    # -- moves -----------------------------------------------------------------------
    def player_line(self, line: str) -> list[Happened]:
        """The player's line (LexitrainError, nothing changed, when it cannot be made), then saved."""
        if self.tracking_question() is not None:
            raise LexitrainError("first name the unseen tiles you were asked for")
        happened = self.match.player_line(line)
        self.save()
        return happened

    def bot_step(self) -> list[Happened]:
        happened = self.match.bot_step()
        self.save()
        return happened

    def put_away(self) -> None:
        """Stop the clock and save: the game waits for `--resume`."""
        self.match.clock.stop()
        self.save()
        self.close()

    def save(self) -> None:
        match, saved = self.match, self.saved
        saved.used = [match.clock.spent(0), match.clock.spent(1)]
        saved.running, saved.saved_at = match.clock.running, match.clock.now()
        saved.scores, saved.turns = match.scores, match.turn_number - 1
        if match.finished and saved.ended is None:
            saved.ended, saved.winner = now_text(), match.winner()
        record = match.record()
        write_saved(saved, record, self._loaded)
        self._loaded = len(record.events)
        if match.finished:
            self.close()

    # -- tile tracking ---------------------------------------------------------------
    def tracking_question(self) -> Question | None:
        """The unseen tiles asked for now, when this turn is one of the moments (None: play on)."""
        if self._asked is not None:
            return self._asked
        match = self.match
        if not match.settings.hide_unseen or match.to_move != PLAYER or not match.bag():
            return None
        turn = match.turn_number
        if any(asked == turn for asked, _ in self.saved.tracked):
            return None
        late = match.bag() <= RACK_SIZE and not any(bag <= RACK_SIZE for _, bag in self.saved.tracked)
        chosen = turn > 2 and random.Random(f"track/{match.settings.seed}/{turn}").random() < TRACK_CHANCE
        if not (late or chosen):
            return None
        self._asked = new_kind(TRACKING_KIND).build(match.lex, match.cgp())  # (no session until it is answered)
        return self._asked

    def track(self, answer: str) -> Outcome:
        """Score and record the player's answer (Refused, nothing recorded, for a line that is no tiles)."""
        if self._asked is None:
            raise LexitrainError("no unseen tiles were asked for")
        session = self._tracking()
        question = session.kind(TRACKING_KIND).build(self.match.lex, self._asked.key)
        outcome = session.answer(question, answer)
        self._asked = None
        self.saved.tracked.append([self.match.turn_number, self.match.bag()])
        self.save()
        return outcome

    def _tracking(self) -> Session:
        if self._session is None:
            self._session = Session(self.store, self.match.lex, TRACKING, f"game {self.name}", [], None,
                                    title=f"tile tracking in {self.name}")
        return self._session

    def close(self) -> None:
        """End the tracking session (if any was opened)."""
        if self._session is not None:
            self._session.finish(save_missed=False)
            self._session = None


__all__ = ["BOT", "PLAYER", "PlayedGame"]
