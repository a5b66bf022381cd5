"""The Play pages over HTTP (Starlette's TestClient): a game to the end in ENABLE, its record, stale and bad
requests, two programs on one game, tile tracking, the review, and the leaks on the Stats page."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lexitrain.engine.board import Board, tile_number
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import ScoredPlay
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.play import PlayedGame
from lexitrain.study.records.saved_games import GameMoved, named_game
from lexitrain.study.store import ProgressStore
from lexitrain.tiles import Rack
from lexitrain.web.app import create_app
from lexitrain.web.context import Context

SAME_ORIGIN = {"origin": "http://testserver"}


@pytest.fixture
def client(enable: Lexicon) -> Iterator[TestClient]:
    with ProgressStore() as store:
        ctx = Context(store, "enable", secret="s3cret", hosts=frozenset({"testserver"}))
        with TestClient(create_app(ctx), headers=SAME_ORIGIN) as client:
            assert client.get("/?key=s3cret").status_code == 200
            yield client


#: the seed the two tests below deal their games from (a game's own is random: with some, the bot's first
#: move is an exchange that cannot be challenged, or the bag holds no E to track)
SEED = 1


@pytest.fixture
def seeded(monkeypatch: pytest.MonkeyPatch) -> None:
    from lexitrain.web import play

    monkeypatch.setattr(play.secrets, "randbelow", lambda _: SEED)


def start(client: TestClient, **fields: str) -> str:
    response = client.post("/play", data={"level": "3", "clock": "25", **fields}, follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def plays_of(state: dict[str, Any], lex: Lexicon, generator: MoveGenerator) -> list[ScoredPlay]:
    """Every play of the player's rack on the board a Play page's state draws, the top-scoring first."""
    board = Board(lex.layout, lex.tiles)
    for r, row in enumerate(state["board"]["rows"]):
        for c, square in enumerate(row):
            if square["tile"]:
                board.set(r, c, tile_number(lex.tiles, square["tile"]))
    return generator.plays(board, Rack.parse(lex.tiles, state["rack"]))


def top_play(state: dict[str, Any], lex: Lexicon, generator: MoveGenerator) -> str:
    plays = plays_of(state, lex, generator)
    return plays[0].format(lex.tiles) if plays else "pass"


def play_out(client: TestClient, name: str, lex: Lexicon, tiles: str | None = None) -> dict[str, Any]:
    generator = MoveGenerator(dawg_for(lex))
    state = client.get(f"/api/play/{name}").json()
    while not state["finished"]:
        if state["to_move"] == "bot":
            state = client.post(f"/api/play/{name}/bot", json={"turn": state["turn"]}).json()
        elif state["track"]:
            state = client.post(f"/api/play/{name}/track", json={"turn": state["turn"], "tiles": tiles or ""}).json()
            assert "tracked" in state, state
        else:
            state = client.post(f"/api/play/{name}/move",
                                json={"turn": state["turn"], "line": top_play(state, lex, generator)}).json()
            assert "refused" not in state, state
    return state


def test_a_game_in_the_browser_to_the_end_and_reviewed(client: TestClient, enable: Lexicon) -> None:
    assert "Play the engine" in client.get("/play").text
    name = start(client)
    assert client.get(f"/play/{name}").status_code == 200
    state = client.get(f"/api/play/{name}").json()
    assert {"board", "rack", "scores", "clock", "turn", "to_move", "log", "unseen"} <= set(state)
    assert state["clock"] == [1500, 1500] or state["clock"][0] <= 1500
    end = play_out(client, name, enable)
    assert end["end"]["winner"] in ("you", "Club", "draw") and end["end"]["scores"] == end["scores"]
    record = read_gcg(Path(end["end"]["gcg"]))
    totals: dict[str, int] = {}
    for event in record.events:
        totals[event.player] = event.cumulative
    assert [totals["you"], totals["Club"]] == end["scores"]
    theirs = [m for m in end["log"] if not m["mine"] and m["move"].startswith("-")]
    assert all(m["move"].endswith(" tiles") for m in theirs)  # the bot's exchanged tiles are not shown
    review = client.get(f"/games/{name}").text
    assert "Mistake Index" in review and "estimated rating" in review
    # the summary's win probability: the mean a turn and the most in one turn, never their sum (twenty turns of
    # 6% each once read "120.0% win probability given up"); an analysis kept by an older lexitrain (no such
    # figures in its summary) reads the same
    kept_path = Path(end["end"]["gcg"]).with_suffix(".analysis.json")
    kept = json.loads(kept_path.read_text(encoding="utf-8"))
    mine = [t for t in kept["report"]["turns"] if t["player"] == "you" and not t["note"]]
    for turn in mine:
        turn["win_lost"] = 0.06
    mine[0]["win_lost"] = 0.25
    kept["report"]["summary"]["you"] = {k: v for k, v in kept["report"]["summary"]["you"].items()
                                         if not k.startswith("win_lost")}
    kept_path.write_text(json.dumps(kept), encoding="utf-8")
    summary = re.search(r'<section class="panel" id="summary">(.*?)</section>', client.get(f"/games/{name}").text, re.S)
    assert summary is not None
    mean = (0.25 + 0.06 * (len(mine) - 1)) / len(mine)
    assert f'<strong id="win-lost-per-turn">{100 * mean:.1f}%</strong> a turn on average' in summary.group(1)
    assert '<strong id="win-lost-most">25.0%</strong> at most in one turn' in summary.group(1)
    assert all(float(x) <= 100 for x in re.findall(r"([0-9.]+)%", summary.group(1))), summary.group(1)
    assert client.post(f"/api/play/{name}/move", json={"turn": end["turn"], "line": "pass"}).json().get("refused")
    stats = client.get("/stats").text
    assert "Leaks: what your mistakes cost" in stats and 'id="leak-kinds"' in stats
    leak_total = re.search(r'<p id="leak-total">(.*?)</p>', stats, re.S)
    assert leak_total is not None and "a turn on average" in leak_total.group(1)
    assert all(float(x) <= 100 for x in re.findall(r"([0-9.]+)%", leak_total.group(1))), leak_total.group(1)
    # the home page lined up the daily plan's cards (ENABLE's twos, threes, sevens and eights): none is the
    # player's new card, studied or made by the game (Stats said "1784 new" after one game)
    states = re.search(r'<table id="by-state"[^>]*>.*?</table>', stats, re.S)
    assert states is not None
    heads = re.findall(r"<th[^>]*>([^<]+)</th>", states.group(0))
    cells = dict(zip(heads, re.findall(r"<td[^>]*>([^<]+)</td>", states.group(0))))
    assert cells["new"] == "0" and int(cells["in your plan"].replace(",", "")) > 1000, cells
    assert "more wait in your study plan" in stats
    made = client.post("/leaks/study", data={}, follow_redirects=False)
    assert made.status_code == 303 and "studied=" in made.headers["location"]


def test_a_challenge_lost_is_named_in_the_review(client: TestClient, enable: Lexicon, seeded: None) -> None:
    """The record has a lost double challenge as a pass (as Macondo writes it); the review says what it was."""
    name = start(client, clock="0")
    generator = MoveGenerator(dawg_for(enable))
    state = client.get(f"/api/play/{name}").json()
    while state["to_move"] == "bot" or not state["log"]:  # the bot's first play, then the player's turn
        state = (client.post(f"/api/play/{name}/bot", json={"turn": state["turn"]}) if state["to_move"] == "bot" else
                 client.post(f"/api/play/{name}/move", json={"turn": state["turn"],
                                                             "line": top_play(state, enable, generator)})).json()
    state = client.post(f"/api/play/{name}/move", json={"turn": state["turn"], "line": "challenge"}).json()
    assert "refused" not in state, state
    play_out(client, name, enable)
    review = client.get(f"/games/{name}").text
    assert review.count("challenge (lost the turn)") == 1


def test_stale_bad_and_foreign_requests(client: TestClient, enable: Lexicon) -> None:
    name = start(client, clock="0")
    state = client.get(f"/api/play/{name}").json()
    if state["to_move"] == "bot":
        state = client.post(f"/api/play/{name}/bot", json={"turn": state["turn"]}).json()
    refused = client.post(f"/api/play/{name}/move", json={"turn": state["turn"], "line": "8D ZZZZZZZ"}).json()
    row_8_empty = not any(square["tile"] for square in state["board"]["rows"][7][3:10])  # (the bot may have moved)
    # "Z is not on the rack ...", or "the play needs 7 Z, the rack ... has 1" when the draw gave a Z
    assert refused["turn"] == state["turn"] and ("the rack" if row_8_empty else "8") in refused["refused"]
    stale = client.post(f"/api/play/{name}/move", json={"turn": state["turn"] + 5, "line": "pass"})
    assert stale.status_code == 409 and "moved on" in stale.json()["error"]
    for bad in ("../../etc/passwd", "nope", "2026-12-06-000000-..x"):
        response = client.get(f"/api/play/{bad}")
        assert response.status_code == 404 and "Traceback" not in response.text
    assert client.post(f"/api/play/{name}/move", json={"turn": "x", "line": "pass"}).status_code == 400
    assert client.post("/play", data={"level": "9"}).status_code == 400


def test_two_programs_on_one_game_cannot_overwrite_each_others_moves(client: TestClient, enable: Lexicon) -> None:
    name = start(client, clock="0")
    with ProgressStore() as store:
        elsewhere = PlayedGame.resume(store, named_game(name))  # the terminal has it open
        if elsewhere.to_move == "bot":
            elsewhere.bot_step()
        state = client.get(f"/api/play/{name}").json()
        before = named_game(name).read_text(encoding="utf-8")
        web = client.post(f"/api/play/{name}/move", json={"turn": state["turn"], "line": "pass"})
        assert web.status_code == 200
        after_web = named_game(name).read_text(encoding="utf-8")
        assert after_web != before
        with pytest.raises(GameMoved, match="played on elsewhere"):
            elsewhere.player_line("pass")
        assert named_game(name).read_text(encoding="utf-8") == after_web  # the web's move stands


def test_tile_tracking_through_the_page(client: TestClient, enable: Lexicon, seeded: None) -> None:
    name = start(client, hide_unseen="1", clock="0")
    state = client.get(f"/api/play/{name}").json()
    assert "unseen" not in state and state["hide_unseen"]
    generator = MoveGenerator(dawg_for(enable))
    tracked = 0
    while not state["finished"] and not tracked:
        if state["to_move"] == "bot":
            state = client.post(f"/api/play/{name}/bot", json={"turn": state["turn"]}).json()
        elif state["track"]:
            refused = client.post(f"/api/play/{name}/move", json={"turn": state["turn"], "line": "pass"}).json()
            assert "first name the unseen tiles" in refused["refused"]
            bad = client.post(f"/api/play/{name}/track", json={"turn": state["turn"], "tiles": "A1"}).json()
            assert bad["refused"]
            move = client.post(f"/api/play/{name}/track", json={"turn": state["turn"], "tiles": "8D QUITE"}).json()
            assert "'8D QUITE' is a move: first name the" in move["refused"] and move["track"]  # asked again
            state = client.post(f"/api/play/{name}/track", json={"turn": state["turn"], "tiles": "EEE"}).json()
            assert 0 < state["tracked"]["tiles_right"] <= 3 and state["tracked"]["score"] < 1
            tracked += 1
        else:
            state = client.post(f"/api/play/{name}/move",
                                json={"turn": state["turn"], "line": top_play(state, enable, generator)}).json()
    assert tracked
    with ProgressStore() as store:
        rows = store.kind_answers("enable", "tile-tracking")
    assert len(rows) == 1 and rows[0][1] == "EEE"
