"""The player's games against the bots, kept in the home: each a GCG file and, beside it, what only lexitrain needs.

`games/2026-12-05-143210-champion.gcg` is the game as any GCG program reads
it (players, lexicon, every rack and move, challenges, time penalties, the
end's rack points); `...-champion.json` beside it holds the settings it was
started with (seed, bot level, challenge rule, clock, whether the unseen
tiles are hidden), each player's time used, the turns whose unseen tiles
were asked, and when it started and ended. Both are written whole or not at
all (`paths.write_atomically`), the GCG first: it is the record; the settings
say how to go on. A save checks, under the game's lock, that the file on
disk still has the moves it was loaded with, so two programs playing one
game at once cannot overwrite each other's moves (`GameMoved`). A club member's
games are kept in their own folder (HOME below), so no member lists or
opens another's.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from lexitrain.engine.gcg import Game as Record, parse_gcg, write_gcg
from lexitrain.engine.match import Settings
from lexitrain.errors import LexitrainError
from lexitrain.paths import data_folder, locked, write_atomically

FOLDER = "games"
#: the settings file's format
FORMAT = 1


class GameMoved(LexitrainError):
    """The game's file has moves this program did not make (another window plays it too)."""


@dataclass
class SavedGame:
    """One saved game: where its record is and what lexitrain keeps beside it."""

    gcg: Path
    settings: Settings
    used: list[float] = field(default_factory=lambda: [0.0, 0.0])  # seconds used, by seat (the first mover's first)
    started: str = ""  # ISO 8601, UTC
    ended: str | None = None
    scores: list[int] = field(default_factory=lambda: [0, 0])  # the player's, the bot's
    winner: str | None = None
    turns: int = 0
    tracked: list[list[int]] = field(default_factory=list)  # [turn, tiles in the bag] of each tile tracking asked
    bot: str = ""
    running: int | None = None  # the seat whose time ran when it was saved (None: the clock was stopped)
    saved_at: float = 0.0  # when (unix seconds)

    @property
    def finished(self) -> bool:
        return self.ended is not None

    @property
    def state_path(self) -> Path:
        return self.gcg.with_suffix(".json")

    def to_json(self) -> dict[str, Any]:
        """A game as `lexitrain games --json` lists it."""
        s = self.settings
        return {"gcg": str(self.gcg), "name": self.gcg.stem, "bot": self.bot, "level": s.level,
                "lexicon": s.lexicon, "challenge": s.challenge, "clock": s.minutes, "hide_unseen": s.hide_unseen,
                "started": self.started, "ended": self.ended, "finished": self.finished, "turns": self.turns,
                "scores": self.scores, "winner": self.winner}

    def state_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "settings": self.settings.to_json(), "used": [round(u, 3) for u in self.used],
                "started": self.started, "ended": self.ended, "scores": self.scores, "winner": self.winner,
                "turns": self.turns, "tracked": self.tracked, "bot": self.bot, "running": self.running,
                "saved_at": self.saved_at}


def games_folder(home: Path | None = None) -> Path:
    """The games' folder: the data folder's, or HOME's (a club member's own folder)."""
    return data_folder(FOLDER, home)


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def new_game_path(bot: str, home: Path | None = None) -> Path:
    """A new game's file: named by the time it starts and the bot, never one that exists."""
    stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
    slug = re.sub(r"[^a-z0-9]+", "-", bot.lower()).strip("-") or "bot"
    folder = games_folder(home)
    path = folder / f"{stamp}-{slug}.gcg"
    number = 2
    while path.exists() or path.with_suffix(".json").exists():
        path = folder / f"{stamp}-{slug}-{number}.gcg"
        number += 1
    return path


def _lock(gcg: Path) -> Path:
    return gcg.with_name(f".{gcg.name}.lock")


def read_saved(gcg: Path) -> tuple[SavedGame, Record]:
    """A saved game and its record; a one-line error naming the file when either cannot be read."""
    state = gcg.with_suffix(".json")
    try:
        data = json.loads(state.read_text(encoding="utf-8"))
        saved = SavedGame(gcg, Settings.from_json(data["settings"]), [float(u) for u in data["used"]],
                          str(data.get("started", "")), data.get("ended"), list(data.get("scores", [0, 0])),
                          data.get("winner"), int(data.get("turns", 0)), [[int(t), int(b)] for t, b in data.get("tracked", [])],
                          str(data.get("bot", "")), data.get("running"), float(data.get("saved_at", 0.0)))
    except FileNotFoundError:
        raise LexitrainError(f"{gcg}: not a lexitrain game (no {state.name} beside it)") from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise LexitrainError(f"{state}: cannot be read ({exc})") from None
    try:
        record = parse_gcg(gcg.read_text(encoding="utf-8"), str(gcg))  # (no moves yet: the bot moves second)
    except FileNotFoundError:
        raise LexitrainError(f"{gcg}: the game's record is missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LexitrainError(f"{gcg}: cannot be read ({exc})") from None
    return saved, record


def _events_on_disk(gcg: Path) -> int:
    try:
        return sum(1 for line in gcg.read_text(encoding="utf-8").splitlines() if line.startswith(">"))
    except FileNotFoundError:
        return 0


def write_saved(saved: SavedGame, record: Record, loaded_events: int | None) -> None:
    """Write a game's record and settings. LOADED_EVENTS: the move lines the file had when this program
    read it (None: a new game); a file that has others now was played elsewhere meanwhile (GameMoved)."""
    with locked(_lock(saved.gcg)):
        if loaded_events is not None and _events_on_disk(saved.gcg) != loaded_events:
            raise GameMoved(f"{saved.gcg.name} was played on elsewhere (another window?) since it was opened: "
                            "open it again to see where it stands")
        write_atomically(saved.gcg, write_gcg(record))
        write_atomically(saved.state_path, json.dumps(saved.state_json(), indent=1) + "\n")


def saved_games(home: Path | None = None) -> list[SavedGame]:
    """Every saved game (of HOME's folder), newest first (a file that cannot be read is left out)."""
    out = []
    for state in games_folder(home).glob("*.json"):
        gcg = state.with_suffix(".gcg")
        if not gcg.is_file():
            continue
        try:
            out.append(read_saved(gcg)[0])
        except LexitrainError:
            continue
    return sorted(out, key=lambda g: (g.started, g.gcg.name), reverse=True)


#: the names `new_game_path` gives (what a web request may name)
GAME_NAME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{6}-[a-z0-9-]{1,40}")


def named_game(name: str, home: Path | None = None) -> Path:
    """The saved game of that name in the games folder (HOME's), and nothing outside it (a name a page sends)."""
    path = games_folder(home) / f"{name}.gcg"
    if not GAME_NAME.fullmatch(name) or not path.is_file():
        raise LexitrainError(f"no saved game {name!r}")
    return path


def find_saved(name: str | None) -> Path:
    """The game a player names: a file, a name from `lexitrain games`, or (None) the latest unfinished one."""
    if name is None:
        playing = [g for g in saved_games() if not g.finished]
        if not playing:
            raise LexitrainError("no unfinished game to resume: start one with `lexitrain play`")
        return playing[0].gcg
    path = Path(name)
    if path.suffix.lower() == ".gcg" and path.is_file():
        return path
    candidate = games_folder() / f"{Path(name).stem}.gcg"
    if candidate.is_file():
        return candidate
    raise LexitrainError(f"no saved game {name!r} (see `lexitrain games`)")
