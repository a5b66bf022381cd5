"""The games page in a real browser (Debian's chromium via Playwright) against a live `lexitrain web`: real games
chosen in the file box, their players offered, the cards made, a bad file named with its line; at laptop and
phone width, nothing off the screen. Skipped without chromium unless LEXITRAIN_REQUIRE_BROWSER=1; any page or
console error fails the test."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from lexitrain.lexicon.lexicon import Lexicon
from tests.cli_runner import run
from test_engine_analysis import DOUG
from web_helpers import CHROMIUM_ARGS, chromium_or_skip, overflowing, serving

CHROMIUM = chromium_or_skip()
from playwright.sync_api import expect, sync_playwright  # noqa: E402  (after the skip)

expect.set_options(timeout=60_000)  # (the read-the-rack cards' inference takes seconds on a loaded machine)
SECRET = "games-key"
SIZES = {"laptop": (1280, 800), "phone": (390, 844)}


@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_makes_cards_from_their_games_in_the_page(enable: Lexicon, real_games: Path, tmp_path: Path,
                                                           size: str) -> None:
    from lexitrain.study.store import ProgressStore
    from lexitrain.web.app import create_app
    from lexitrain.web.context import Context

    bad = tmp_path / "woogles_tournament_round_7_against_a_long_nickname_annotated.gcg"  # no space to break at
    bad.write_text("#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +66 66\n>bob: not a move\n")
    line = run("study", "from-games", str(real_games / DOUG), "--player", "doug", "--read-rack").stdout.strip()
    shots = Path(os.environ.get("LEXITRAIN_SCREENSHOTS") or tmp_path)
    errors: list[str] = []
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    with ProgressStore(tmp_path / "web.sqlite") as store, sync_playwright() as p:
        ctx = Context(store, "enable", secret=SECRET, hosts=frozenset({f"127.0.0.1:{port}"}))
        with serving(create_app(ctx), sock):
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            width, height = SIZES[size]
            page = browser.new_context(viewport={"width": width, "height": height}).new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
            page.goto(f"http://127.0.0.1:{port}/?key={SECRET}")
            page.get_by_role("link", name="Games").click()
            expect(page.locator("h1")).to_have_text("Cards from your games")
            page.wait_for_load_state()  # (the heading shows before games.js listens: files chosen then went unseen)
            page.set_input_files("#games-files", [str(real_games / DOUG), str(bad)])
            player = page.locator("#games-player")
            expect(player.locator("option")).to_have_text(["doug", "emely", "every player"])
            expect(page.locator("#notice")).to_contain_text(f"skipped {bad.name}:4: ")
            player.select_option("doug")
            page.check("#games-read-rack")
            shot = shots / f"web-games-chosen-{size}.png"
            page.screenshot(path=str(shot), full_page=True)
            page.click("#games-make")
            expect(page.locator("#games-said")).to_have_text(line)  # the command's own line, the same cards
            expect(page.locator("#games-skipped li")).to_have_count(1)
            expect(page.locator("#games-skipped li").first).to_contain_text(f"skipped {bad.name}:4: ")
            page.screenshot(path=str(shots / f"web-games-made-{size}.png"), full_page=True)
            assert overflowing(page) == []
            page.get_by_role("link", name="Review them now").click()
            expect(page.locator("#which")).to_contain_text("Card 1")
            browser.close()
    assert errors == []
