"""GCG: the recorded-game format (read and write).

Pragmas (`#player1 nick Full Name`, `#lexicon`, `#character-encoding`,
`#rack1`, `#title`, `#description`, `#id`, `#note` with continuation lines,
and any other `#name value`) and move lines:

    >nick: RACK 8D QUITE +48 48        tile play (`.` or `( )` for tiles already there)
    >nick: RACK --  -48 0              the previous play withdrawn (a phony challenged off)
    >nick: RACK -ABC +0 48             exchange (or `-3`: count only); `-` alone is a pass
    >nick: RACK (challenge) +5 53      bonus for a wrongly challenged play
    >nick: RACK (time) -10 43          time penalty
    >nick:  (ABC) +10 63               end of game: the opponent's rack (or `-` own rack)

Errors name the file and line; `write_gcg` writes a game back (what `lexitrain
play` saves). Replaying onto a board is in `replay.py`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lexitrain.engine.play import NotationError, parse_position
from lexitrain.errors import LexitrainError

PLAY, WITHDRAWN, EXCHANGE, PASS, CHALLENGE_BONUS, TIME_PENALTY, END_RACK = (
    "play", "withdrawn", "exchange", "pass", "challenge", "time", "end-rack")

_SCORE = re.compile(r"^[+-]\d+$")
_NUMBER = re.compile(r"^-?\d+$")
_RACK = re.compile(r"^[^\s()#+\-.]*$")


class GCGError(LexitrainError):
    """A GCG file that cannot be read; the message names file and line."""


@dataclass
class Event:
    """One `>` line of a GCG file."""

    kind: str
    player: str
    rack: str
    score: int
    cumulative: int
    line: int = 0
    position: str = ""  # tile play: `8D`
    tiles: str = ""  # tile play: `QUIT.`; exchange: letters or a count; end-rack: the rack
    notes: list[str] = field(default_factory=list)
    extra: str = ""  # anything after the cumulative score, kept for writing back


@dataclass
class Player:
    nick: str
    name: str


@dataclass
class Game:
    """A parsed GCG file: pragmas, players and events in file order."""

    players: list[Player] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    pragmas: dict[str, str] = field(default_factory=dict)  # other single-valued pragmas
    notes: list[str] = field(default_factory=list)  # notes before the first move
    source: str = ""

    @property
    def lexicon(self) -> str | None:
        return self.pragmas.get("lexicon")


def read_gcg(path: str | Path) -> Game:
    """Parse a GCG file (UTF-8, with or without BOM or CRLF; else Latin-1)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise GCGError(f"{path}: cannot read ({exc.strerror})") from None
    return decode_gcg(data, str(path))


def decode_gcg(data: bytes, source: str) -> Game:
    """Parse a GCG file's bytes, however they came (a file read, an upload): SOURCE names it in an error."""
    if b"\x00" in data:
        raise GCGError(f"{source}: binary data, not a GCG file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    game = parse_gcg(text, source)
    if not game.events:  # an empty file, or headers only: nothing to verify, show or learn from
        raise GCGError(f"{source}: no turns recorded (a GCG game has '>player: ...' lines)")
    return game


def _unreadable(where: str, line: str) -> GCGError:
    """A line a GCG game does not hold, in one line: where, what it says, and what a game's lines are."""
    return GCGError(f"{where}: cannot read {line.strip()[:40]!r} (expected '>player: ...' or '#pragma' of a GCG "
                    "game)")


def parse_gcg(text: str, source: str = "<gcg>") -> Game:
    game = Game(source=source)
    players: dict[int, Player] = {}
    in_note = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip()
        where = f"{source}:{number}"
        if not line.strip():
            in_note = False
            continue
        if line.startswith(">"):
            in_note = False
            game.events.append(_parse_event(line, where, number))
            continue
        if line.startswith("#"):
            name, _, value = line[1:].partition(" ")
            value = value.strip()
            in_note = name == "note"
            m = re.fullmatch(r"player(\d+)", name)
            if m:
                nick, _, full = value.partition(" ")
                if not nick:
                    raise GCGError(f"{where}: #{name} needs a nickname")
                players[int(m.group(1))] = Player(nick, full.strip() or nick)
            elif name == "note":
                (game.events[-1].notes if game.events else game.notes).append(value)
            elif not name:  # ('# ...': a comment, a Markdown heading: not a GCG file)
                raise _unreadable(where, line)
            else:
                game.pragmas[name] = value
            continue
        if in_note:
            notes = game.events[-1].notes if game.events else game.notes
            notes[-1] += "\n" + line
            continue
        raise _unreadable(where, line)
    game.players = [players[k] for k in sorted(players)]
    known = {p.nick for p in game.players}
    for event in game.events:
        if event.player not in known:
            game.players.append(Player(event.player, event.player))
            known.add(event.player)
    return game


def _parse_event(line: str, where: str, number: int) -> Event:
    """A `>player: rack move score cumulative` line (the rack may be left out, a note may follow)."""
    head, colon, rest = line[1:].partition(":")
    if not colon or not head.strip():
        raise GCGError(f"{where}: move line needs '>player: ...'")
    tokens = rest.split()
    cut = _score_at(tokens, where)
    score, cumulative = int(tokens[cut]), int(tokens[cut + 1])
    rack, move = _rack_and_move(tokens[:cut], where)
    event = Event("", head.strip(), rack, score, cumulative, number, extra=" ".join(tokens[cut + 2 :]))
    _read_move(event, move, where)
    return event


def _score_at(tokens: list[str], where: str) -> int:
    """Where the score and cumulative total are among a move line's words: the last signed number followed by
    a number (a note after them may hold numbers too)."""
    cut = -1
    for k in range(len(tokens) - 1):
        if _SCORE.match(tokens[k]) and _NUMBER.match(tokens[k + 1]):
            cut = k
    if cut < 0:
        raise GCGError(f"{where}: no score and cumulative total (e.g. '+48 48') on the move line")
    return cut


def _rack_and_move(before: list[str], where: str) -> tuple[str, list[str]]:
    """The rack (empty where it is left out) and the move's words, from what stands before the score."""
    if not before:
        raise GCGError(f"{where}: no move before the score")
    # the rack may be left out: a move starts with '(', '-' or a position (which has a digit)
    no_rack = before[0].startswith(("(", "-")) or any(ch.isdigit() for ch in before[0])
    rack, move = ("", before) if no_rack else (before[0], before[1:])
    if rack and not _RACK.match(rack):
        raise GCGError(f"{where}: bad rack {rack!r}")
    if not move:
        raise GCGError(f"{where}: no move after the rack {rack!r}")
    return rack, move


#: the moves a GCG writes as one fixed word, and their kind
_FIXED_MOVES = {"--": WITHDRAWN, "-": PASS, "(challenge)": CHALLENGE_BONUS, "(time)": TIME_PENALTY}


def _read_move(event: Event, move: list[str], where: str) -> None:
    """The event's kind, and its position and tiles where it has them, from the move's words: `8D QUITE`,
    `--`, `-`, `-ABC`, `(challenge)`, `(time)` or `(ABC)`."""
    first = move[0]
    if len(move) == 2 and not first.startswith(("(", "-")):
        try:
            parse_position(first)
        except NotationError as exc:
            raise GCGError(f"{where}: {exc}") from None
        event.kind, event.position, event.tiles = PLAY, first, move[1]
    elif len(move) != 1:
        raise GCGError(f"{where}: cannot read the move {' '.join(move)!r}")
    elif first in _FIXED_MOVES:
        event.kind = _FIXED_MOVES[first]
    elif first.startswith("-"):
        event.kind, event.tiles = EXCHANGE, first[1:]
    elif first.startswith("(") and first.endswith(")"):
        event.kind, event.tiles = END_RACK, first[1:-1]
    else:
        raise GCGError(f"{where}: cannot read the move {first!r}")


def event_text(event: Event) -> str:
    """The move of a `>` line as the file writes it: `8D QUITE`, `--`, `-ABC`, `-`, `(challenge)`, `(ABC)`."""
    if event.kind == PLAY:
        return f"{event.position} {event.tiles}"
    if event.kind == EXCHANGE:
        return f"-{event.tiles}"
    texts = {WITHDRAWN: "--", PASS: "-", CHALLENGE_BONUS: "(challenge)", TIME_PENALTY: "(time)"}
    return texts.get(event.kind, f"({event.tiles})")


def write_gcg(game: Game) -> str:
    """The game as GCG text (UTF-8; pragmas first, each note after its move), as `read_gcg` reads it back
    and other GCG programs read it: only the pragmas they know, scores signed (`+48`, `-24`)."""
    lines = ["#character-encoding UTF-8"]
    for i, p in enumerate(game.players, start=1):
        lines.append(f"#player{i} {p.nick} {p.name}")
    for name, value in game.pragmas.items():
        if name != "character-encoding":
            lines.append(f"#{name} {value}".rstrip())
    lines.extend(f"#note {n}" for n in game.notes)
    for e in game.events:
        text = f">{e.player}: {e.rack} {event_text(e)} {e.score:+d} {e.cumulative}"
        lines.append(text + (f" {e.extra}" if e.extra else ""))
        lines.extend(f"#note {n}" for n in e.notes)
    return "\n".join(lines) + "\n"
