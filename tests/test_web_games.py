"""Cards from the player's own games, uploaded to the web app (`/games`): the files sent as one multipart body
the edge bounds, their players offered, and the cards `lexitrain study from-games` makes from the same games,
by the same function; a file that does not read named with its line, in one line."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.store import ProgressStore
from lexitrain.web.app import create_app
from lexitrain.web.context import Context
from lexitrain.web.games import MOST_GAMES
from tests.cli_runner import run
from test_engine_analysis import DOUG

POLISH = "domino14__macondo__gcgio__testdata__polish_endgame.gcg"
#: a game whose second turn is no GCG line
BAD = b"#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +66 66\n>bob: this is not a move\n"


@pytest.fixture
def client(enable: Lexicon, tmp_path: Path) -> Iterator[TestClient]:
    with ProgressStore(tmp_path / "progress.sqlite") as store:
        ctx = Context(store, "enable", secret="s3cret", hosts=frozenset({"testserver"}))  # (the real clock: due now)
        with TestClient(create_app(ctx), headers={"origin": "http://testserver"}) as web:
            assert web.get("/?key=s3cret").status_code == 200
            web.store = store  # type: ignore[attr-defined]
            yield web


def sent(*files: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes, str]]]:
    return [("games", (name, data, "application/octet-stream")) for name, data in files]


def test_uploaded_games_make_the_cards_the_command_makes(client: TestClient, real_games: Path) -> None:
    page = client.get("/games")
    assert page.status_code == 200 and "Cards from your games" in page.text
    doug = (real_games / DOUG).read_bytes()
    named = client.post("/api/games/players", files=sent(("doug_v_emely.gcg", doug), ("bad.gcg", BAD),
                                                         (POLISH, (real_games / POLISH).read_bytes())))
    assert named.status_code == 200, named.text
    assert [p["nick"] for p in named.json()["players"]] == ["doug", "emely"] + [
        p["nick"] for p in named.json()["players"][2:]]  # (the Polish game's players after them)
    (skipped,) = named.json()["skipped"]  # the file and its line, in one line, as the command names them
    assert skipped.startswith("bad.gcg:4: ") and "\n" not in skipped

    made = client.post("/api/games/cards", data={"player": "doug", "read_rack": "1"},
                       files=sent(("doug_v_emely.gcg", doug), ("bad.gcg", BAD)))
    assert made.status_code == 200, made.text
    got = made.json()
    # the command on the same game, into its own fresh store: the same line, the same cards
    line = run("study", "from-games", str(real_games / DOUG), "--player", "doug", "--read-rack").stdout.strip()
    assert got["said"] == line and "new, due now" in line
    command = run("study", "from-games", str(real_games / DOUG), "--player", "doug", "--read-rack", "--json").json()
    assert got["keys"] == command["keys"] and got["keys"]["read-rack"] and got["keys"]["position"]
    assert got["skipped"] == [skipped]
    store: ProgressStore = client.store  # type: ignore[attr-defined]
    due = {(card.kind, card.key) for card in store.scheduled_cards()}
    assert {("read-rack", key) for key in got["keys"]["read-rack"]} <= due
    assert got["added"] == sum(len(keys) for keys in got["keys"].values())

    review = client.post("/api/review", json={}).json()  # the new cards are due now: the reviews ask them
    assert review["question"] is not None


def one_line(response, status: int) -> str:
    assert response.status_code == status, response.text
    assert "\n" not in response.text
    return str(response.json()["error"])


def test_a_bad_upload_is_refused_in_one_line_and_makes_nothing(client: TestClient, real_games: Path) -> None:
    doug = (real_games / DOUG).read_bytes()
    assert one_line(client.post("/api/games/cards", files=sent(("bad.gcg", BAD))), 400).startswith("bad.gcg:4: ")
    assert "no player 'nobody'" in one_line(
        client.post("/api/games/cards", data={"player": "nobody"}, files=sent(("doug.gcg", doug))), 400)
    assert "points" in one_line(client.post("/api/games/cards", data={"points": "many"},
                                            files=sent(("doug.gcg", doug))), 400)
    assert "choose" in one_line(client.post("/api/games/cards", json={"games": "x"}), 400)
    many = sent(*[(f"g{n}.gcg", doug) for n in range(MOST_GAMES + 1)])
    assert str(MOST_GAMES) in one_line(client.post("/api/games/players", files=many), 400)
    huge = sent(("huge.gcg", b"#note " + b"x" * (2 << 20)))
    assert one_line(client.post("/api/games/players", files=huge), 413)
    store: ProgressStore = client.store  # type: ignore[attr-defined]
    assert store.scheduled_cards() == []
