"""`lexitrain play --jsonl`, `bots`, `games` and `leaks` as a program driving them sees them.

The games are played through a real process and its pipes, the player's side
making the top-scoring play of each position it is sent (read from the turn
line's CGP, as any driving program would)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from lexitrain.engine.cgp import parse_cgp
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.replay import replay
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.records.stats import compute
from lexitrain.study.store import ProgressStore
from lexitrain.tiles import Rack
from tests.cli_runner import run

TURN_KEYS = {"turn", "cgp", "rack", "scores", "clock", "unseen"}


class Driver:
    """`lexitrain play --jsonl ARGS` in a process of its own: lines out, lines in."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "lexitrain", "play", "--jsonl", *args],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.lines: list[dict[str, Any]] = []

    def read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        text = self.process.stdout.readline()
        assert text, f"no line: {self.process.stderr.read() if self.process.stderr else ''}"
        line = json.loads(text)
        self.lines.append(line)
        return line

    def send(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=60)


def top_play(line: dict[str, Any], lex: Lexicon, generator: MoveGenerator) -> str:
    position = parse_cgp(line["cgp"], lex.tiles, lex.layout)
    plays = generator.plays(position.board, Rack.parse(lex.tiles, line["rack"]))
    return plays[0].format(lex.tiles) if plays else "pass"


def unseen_of(line: dict[str, Any], lex: Lexicon) -> str:
    position = parse_cgp(line["cgp"], lex.tiles, lex.layout)
    return lex.tiles.spell(unseen_tiles(position.board, Rack.parse(lex.tiles, line["rack"])).names())


def play_to_the_end(driver: Driver, lex: Lexicon, track: str = "right") -> dict[str, Any]:
    generator = MoveGenerator(dawg_for(lex))
    while True:
        line = driver.read()
        if "end" in line:
            return line["end"]
        if "track" in line:  # the position on show, the tiles asked for
            assert set(line["track"]) == {"turn", "cgp", "rack", "count"}
            driver.send(unseen_of(line["track"], lex) if track == "right" else "AEIOU")
            continue
        if "turn" in line:
            driver.send(top_play(line, lex, generator))


def test_a_game_as_json_lines_to_the_end_and_its_record(enable: Lexicon, home: Path) -> None:
    driver = Driver("--bot", "3", "--seed", "8", "--clock", "25", "--lexicon", "enable")
    first = None
    while first is None:
        line = driver.read()
        if "turn" in line:
            first = line
    assert set(first) == TURN_KEYS  # exactly these keys
    assert first["scores"][0] == 0 and first["clock"][0] in (1500, 1499) and first["unseen"] == unseen_of(first, enable)
    driver.send("8D ZZZZZZZ")  # not on the rack: one error line, the same turn again
    assert "error" in driver.read() and set(driver.lines[-1]) == {"error"}
    again = driver.read()
    assert again == {**first, "clock": again["clock"]}
    driver.send("challenge" if first["turn"] == 1 else "pass nonsense")
    assert "error" in driver.read()
    driver.read()
    generator = MoveGenerator(dawg_for(enable))
    driver.send(top_play(driver.lines[-1], enable, generator))
    end = play_to_the_end(driver, enable)
    assert driver.close() == 0
    bots = [line for line in driver.lines if "bot" in line]
    assert bots and all({"bot", "score"} <= set(line) for line in bots)
    turns = [line for line in driver.lines if "turn" in line]
    assert all(set(line) == TURN_KEYS for line in turns)
    assert set(end) == {"scores", "winner", "gcg"} and end["winner"] in ("you", "Club", "draw")
    record = read_gcg(Path(end["gcg"]))
    totals: dict[str, int] = {}
    for event in record.events:
        totals[event.player] = event.cumulative
    assert [totals["you"], totals["Club"]] == end["scores"]  # the saved game replays to the same final scores
    assert all(t.ok for t in replay(record, enable.tiles) if t.kind == "play")
    verify = run("gcg", "verify", end["gcg"], "--json")
    assert verify.exit_code == 0 and verify.json()["ok"]
    games = run("games", "--json").json()
    assert [g["gcg"] for g in games] == [end["gcg"]] and games[0]["finished"] and games[0]["scores"] == end["scores"]
    # the engine's other tools take the new game as they take any recorded game
    analysed = run("gcg", "analyze", end["gcg"], "--player", "you", "--json")
    assert analysed.exit_code == 0 and analysed.json()["players"]["you"]["turns"] > 5
    cards = run("study", "from-games", end["gcg"], "--player", "you", "--json")
    assert cards.exit_code == 0 and cards.json()["games"] == 1
    imported = run("positions", "import", end["gcg"], "--json")
    assert imported.exit_code == 0, imported.stderr


def test_a_game_put_away_goes_on_with_resume(enable: Lexicon) -> None:
    generator = MoveGenerator(dawg_for(enable))
    driver = Driver("--bot", "4", "--seed", "12", "--clock", "0", "--lexicon", "enable")
    turns = 0
    while turns < 3:
        line = driver.read()
        if "turn" in line:
            turns += 1
            if turns < 3:
                driver.send(top_play(line, enable, generator))
    stopped = driver.lines[-1]
    assert driver.close() == 0  # the end of input puts the game away
    games = run("games", "--json").json()
    assert len(games) == 1 and not games[0]["finished"]
    resumed = Driver("--resume")
    line = resumed.read()
    assert line["turn"] == stopped["turn"] and line["cgp"] == stopped["cgp"] and line["rack"] == stopped["rack"]
    resumed.send(top_play(line, enable, generator))
    end = play_to_the_end(resumed, enable)
    assert resumed.close() == 0 and Path(end["gcg"]).name == Path(games[0]["gcg"]).name
    assert run("games", "--json").json()[0]["finished"]
    nothing = run("play", "--resume")
    assert nothing.exit_code == 1 and "no unfinished game" in nothing.stderr


@pytest.mark.parametrize("track", ["right", "wrong"])
def test_tile_tracking_asks_before_the_bag_empties_and_keeps_the_score(enable: Lexicon, track: str) -> None:
    driver = Driver("--bot", "3", "--seed", "30", "--hide-unseen", "--lexicon", "enable")
    play_to_the_end(driver, enable, track)
    assert driver.close() == 0
    assert all(set(line) == TURN_KEYS - {"unseen"} for line in driver.lines if "turn" in line)
    tracked = [line["tracked"] for line in driver.lines if "tracked" in line]
    assert tracked, "never asked for the unseen tiles"
    assert all(t["score"] == (1.0 if track == "right" else t["score"]) for t in tracked)
    if track == "wrong":
        assert all(t["score"] < 1 and t["tiles_right"] <= 5 for t in tracked)
    with ProgressStore() as store:
        report = compute(store, "enable", enable)
    assert report.tracking is not None and report.tracking.asked == len(tracked)
    assert report.tracking.tiles == sum(t["tiles"] for t in tracked)
    assert report.tracking.mean_score == pytest.approx(sum(t["score"] for t in tracked) / len(tracked), abs=1e-3)
    assert "tile tracking:" in "\n".join(run("stats").stdout.splitlines())


def test_a_move_typed_at_the_tile_tracking_question_is_refused_and_asked_again(enable: Lexicon) -> None:
    """A program sends its move where the unseen tiles are asked: one error line naming the question, the same
    question again, nothing scored; then the tiles are scored as ever."""
    generator = MoveGenerator(dawg_for(enable))
    driver = Driver("--bot", "3", "--seed", "30", "--hide-unseen", "--lexicon", "enable")
    asked = None
    while asked is None:
        line = driver.read()
        assert "end" not in line, "never asked for the unseen tiles"
        if "track" in line:
            asked = line["track"]
        elif "turn" in line:
            driver.send(top_play(line, enable, generator))
    for move in (top_play(asked, enable, generator), "pass", "exchange AE", "challenge"):
        driver.send(move)
        refused = driver.read()
        assert set(refused) == {"error"} and "is a move: first name the" in refused["error"], refused
        assert f"the {asked['count']} tiles you cannot see" in refused["error"]
        assert driver.read() == {"track": asked}  # the same question again
    driver.send(unseen_of(asked, enable))
    assert driver.read()["tracked"]["score"] == 1.0
    driver.close()
    with ProgressStore() as store:
        assert len(store.kind_answers("enable", "tile-tracking")) == 1  # the moves were never scored


def test_the_terminal_asks_for_the_unseen_tiles_unmistakably_and_refuses_a_move(enable: Lexicon) -> None:
    """`lexitrain play --hide-unseen` in a terminal (a pseudo-terminal): the question says it comes before the
    move; a move typed there gets one red line and the question again; the tiles typed then are scored; quit
    puts the game away."""
    terminal = Terminal("play", "--bot", "1", "--seed", "30", "--hide-unseen", "--clock", "0", "--lexicon", "enable")
    try:
        while True:
            said = terminal.until(r"your move> |the (\d+) unseen tiles> ")
            if said.endswith("tiles> "):
                break
            terminal.send("pass")
        count = int(re.findall(r"the (\d+) unseen tiles> ", said)[-1])
        assert f"TILE TRACKING, before your move: which {count} tiles can you not see" in said
        terminal.send("8D QUITE")
        again = terminal.until(r"the \d+ unseen tiles> ")
        assert f"'8D QUITE' is a move: first name the {count} tiles you cannot see" in again
        assert "TILE TRACKING, before your move" in again  # asked again, whole
        terminal.send("AEIOU")
        assert re.search(rf"\d+ of {count} right", terminal.until(r"your move> "))
        terminal.send("quit")
        assert "saved: go on with `lexitrain play --resume`" in terminal.until(r"--resume`")
    finally:
        terminal.close()
    with ProgressStore() as store:
        assert [answer for _, answer, *_ in store.kind_answers("enable", "tile-tracking")] == ["AEIOU"]


class Terminal:
    """`lexitrain ARGS` on a pseudo-terminal, read until a prompt shows, lines typed."""

    def __init__(self, *args: str) -> None:
        import os
        import pty

        self.fd, child = pty.openpty()
        self.process = subprocess.Popen([sys.executable, "-m", "lexitrain", *args], stdin=child, stdout=child,
                                        stderr=child, close_fds=True, env={**os.environ, "NO_COLOR": "1"})
        os.close(child)
        self.seen = ""

    def until(self, pattern: str, seconds: float = 120) -> str:
        """Everything shown since the last prompt waited for, up to and with the next match of PATTERN."""
        import os
        import select
        import time

        end = time.monotonic() + seconds
        while not (found := re.search(pattern, self.seen)):
            ready, _, _ = select.select([self.fd], [], [], max(0.0, end - time.monotonic()))
            assert ready, f"waited {seconds} s for {pattern!r}; the screen ends: {self.seen[-500:]!r}"
            self.seen += os.read(self.fd, 65536).decode("utf-8", "replace").replace("\r", "")
        shown, self.seen = self.seen[:found.end()], self.seen[found.end():]
        return shown

    def send(self, line: str) -> None:
        import os

        os.write(self.fd, (line + "\n").encode())

    def close(self) -> None:
        import os

        self.process.kill()
        self.process.wait(timeout=30)
        os.close(self.fd)


def test_bad_options_are_one_line_errors() -> None:
    for args, said in ((["--bot", "9"], "choose a level from 1"), (["--challenge", "triple"], "choose one of"),
                       (["--clock", "-3"], "give minutes per player"), (["--game", "x"], "--game goes with --resume")):
        result = run("play", *args)
        assert result.exit_code == 1 and said in result.stderr and "Traceback" not in result.stderr


def test_the_ladder_as_json() -> None:
    rows = run("bots", "--json").json()
    assert [r["level"] for r in rows] == sorted(r["level"] for r in rows) and len(rows) >= 5
    assert all({"level", "name", "description", "mean_score", "win_vs_equity"} <= set(r) for r in rows)
    measured = [r for r in rows if r["mean_score"] is not None]
    if measured:  # the shipped figures rise with the level
        assert [r["mean_score"] for r in measured] == sorted(r["mean_score"] for r in measured)
        assert [r["win_vs_equity"] for r in measured] == sorted(r["win_vs_equity"] for r in measured)


def test_leaks_with_no_games_yet_is_the_empty_profile_not_an_error() -> None:
    """A fresh home has no games: `leaks --json` is the profile's shape with nothing in it (exit 0), the text says
    so plainly and how to get some, and `--study` has nothing to make (one line, exit 1)."""
    data = run("leaks", "--json").json()
    assert data["games"] == 0 and data["player"] == "you" and data["judged_by"] == []
    assert data["total"] == {"win_per_turn": 0.0, "win_per_game": 0.0, "points_per_game": 0.0, "leaks": 0, "turns": 0}
    assert data["kinds"] and all(k["count"] == 0 and k["share"] == 0.0 for k in data["kinds"])
    assert data["weeks"] == data["costliest"] == data["games_analysed"] == []
    said = run("leaks")
    assert said.exit_code == 0 and said.stdout.startswith("no finished games against the bots yet: `lexitrain play`")
    study = run("leaks", "--study")
    assert study.exit_code == 1 and "no finished games to study from yet" in study.stderr
    assert "Traceback" not in study.stderr


def test_leaks_of_games_from_elsewhere(enable: Lexicon, real_games: Path) -> None:
    path = next(real_games.glob("*doug_v_emely.gcg"))
    data = run("leaks", str(path), "--player", "doug", "--json").json()
    total = data["total"]["win_per_game"]
    assert total > 0 and data["games"] == 1
    assert sum(k["win_per_game"] for k in data["kinds"]) == pytest.approx(total, abs=0.05)
    assert sum(k["points_per_game"] for k in data["kinds"]) == pytest.approx(data["total"]["points_per_game"], abs=0.6)
    assert Counter(k["kind"] for k in data["kinds"]).most_common(1)[0][1] == 1
    turns = data["total"]["turns"]
    assert turns > 10 and data["total"]["win_per_turn"] == pytest.approx(total / turns, abs=0.01)
    assert sum(k["win_per_turn"] for k in data["kinds"]) == pytest.approx(data["total"]["win_per_turn"], abs=0.05)
    said = run("leaks", str(path), "--player", "doug").stdout
    assert f"{data['total']['win_per_turn']:.2f}% win probability given up a turn on average (over {turns} turns)" in said
    assert run("leaks", str(path)).exit_code == 1
