"""The Play page in a real browser (the live server, browser and tab of test_web_browser.py): a game started
from the form, a play typed onto the board square by square, the bot answering, the rack rearranged, both
clocks, the game to its end and its review; a finished game's review on a phone."""

from __future__ import annotations

import re

import os
from pathlib import Path

from lexitrain.engine.board import is_blank, tile_text
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.match import Settings, challenge_rule
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.play import PlayedGame
from lexitrain.study.store import ProgressStore
from lexitrain.tiles import Rack
from test_play_web import plays_of
from test_web_browser import Live, Page, browser, expect, home, live, page  # noqa: F401  (the fixtures)
from web_helpers import NAME, overflowing


def test_a_game_on_the_play_page_to_its_end(page: Page, live: Live) -> None:
    lex = open_lexicon(NAME)
    generator = MoveGenerator(dawg_for(lex))
    for _ in range(3):  # the test list is small: a game may end in scoreless turns before a play could be typed
        if game_to_its_end(page, live, lex, generator):
            break
    else:
        raise AssertionError("no play was typed onto the board in three games")
    page.get_by_role("link", name="This game turn by turn").click()
    expect(page.locator("#mistake-index")).to_be_visible()
    expect(page.locator("#rating")).to_have_text(re.compile(r"^\d{3,4}$"))


def game_to_its_end(page: Page, live: Live, lex: Lexicon, generator: MoveGenerator) -> bool:
    """A new game against the Expert on the Play page, played to its end with the top play each turn, the first
    one without a blank typed onto the board (the rest written in the move box); whether one was typed."""
    page.goto(live.url("/play"))
    page.get_by_label("Bot").select_option("4")
    page.get_by_label("Minutes each (0: untimed)").fill("10")
    page.get_by_role("button", name="Start the game").click()
    expect(page).to_have_url(re.compile(r".*/play/\d{4}-\d{2}-\d{2}-\d{6}-expert"))
    name = page.url.rsplit("/", 1)[1].split("?")[0]
    expect(page.locator("#my-clock")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    typed = dragged = False
    for _ in range(80):
        expect(page.locator("#status")).not_to_have_text(re.compile("thinking"), timeout=60_000)
        if page.locator("#finished").is_visible():
            break
        state = page.request.get(f"{live.base}/api/play/{name}").json()
        if state["finished"]:  # six scoreless turns may end it before the page has drawn the end
            break
        if state["to_move"] != "player":
            continue
        if not dragged and len(state["rack"]) > 1:  # the rack rearranged by dragging: the order is the page's
            before = page.locator("#rack .letter").all_inner_texts()
            page.locator("#rack .letter").nth(0).drag_to(page.locator("#rack .letter").nth(len(before) - 1))
            after = page.locator("#rack .letter").all_inner_texts()
            assert sorted(after) == sorted(before) and after != before or len(set(before)) == 1
            dragged = True
        logged = page.locator("#log li").count()
        plays = plays_of(state, lex, generator)
        turn = state["turn"]
        if plays and not typed and not any(is_blank(t) for _, _, t in plays[0].placed()):
            play = plays[0]  # typed onto the board: its first square clicked (twice to go down), then its letters
            r, c, _ = play.placed()[0]
            square = page.locator(f'[data-square="{state["board"]["columns"][c]}{r + 1}"]')
            square.click()
            if play.down:
                square.click()
            for _, _, tile in play.placed():
                page.keyboard.press(tile_text(lex.tiles, tile))
            expect(page.get_by_label("Your move")).to_have_value(play.format(lex.tiles))
            expect(page.locator("td.pending")).to_have_count(play.tile_count)
            page.keyboard.press("Enter")
            typed = True
        elif plays:
            page.get_by_label("Your move").fill(plays[0].format(lex.tiles))
            page.get_by_role("button", name="Play", exact=True).click()
        else:
            page.get_by_role("button", name="Pass").click()
        expect(page.locator("#log li")).not_to_have_count(logged)  # the move taken: the status may still read the last turn's
        page.wait_for_function(f"() => !document.getElementById('finished').hidden || "
                               f"document.getElementById('status').textContent === 'Your move'", timeout=60_000)
        if typed and state["turn"] == turn and page.locator("td.last").count():
            assert page.locator("td.last").count() >= 1  # the last play marked
    expect(page.locator("#result")).to_have_text(re.compile(r"Game over: -?\d+ to -?\d+"))  # (a score may end below 0)
    return typed


def finished_game(lex: Lexicon) -> str:
    """A game against the Beginner played to its end beside the server (the player's top play each turn), as the
    Play page would have saved it: its name."""
    generator = MoveGenerator(dawg_for(lex))
    with ProgressStore() as store:
        game = PlayedGame.start(store, lex, Settings(lex.name, 1, challenge_rule(None, lex.name), 0, seed=5))
        while not game.finished:
            if game.to_move == "bot":
                game.bot_step()
            else:
                plays = generator.plays(game.match.game.board, Rack.parse(lex.tiles, game.match.rack()))
                game.player_line(plays[0].format(lex.tiles) if plays else "pass")
        return game.name


def test_a_games_review_fits_a_phone(page: Page, live: Live) -> None:
    """The turn-by-turn review: a table of nine columns on a laptop; on a phone each turn a few lines, each value
    named, and nothing scrolls sideways (it did: the table was wider than the phone)."""
    name = finished_game(open_lexicon(NAME))
    folder = os.environ.get("LEXITRAIN_SCREENSHOTS")
    for size, (width, height) in {"phone": (390, 844), "laptop": (1280, 800), "small": (1000, 600)}.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(live.url(f"/games/{name}"))
        expect(page.locator("#mistake-index")).to_be_visible()
        turns = page.locator("#turns tbody tr")
        expect(turns.first).to_be_visible()
        assert not overflowing(page), overflowing(page)
        sideways = page.locator("#turns").evaluate("(t) => t.parentElement.scrollWidth - t.parentElement.clientWidth")
        assert sideways <= 1, f"the review scrolls sideways by {sideways}px at {width}x{height}"
        you = turns.first.locator("td").nth(2)
        expect(you).to_be_visible()
        label = you.evaluate("(td) => getComputedStyle(td, '::before').content")
        assert (label == '"You "') == (size == "phone"), label  # a phone names each value; a table has its heads
        expect(page.get_by_role("columnheader", name="Win % lost")).to_be_visible(visible=size != "phone")
        if folder:
            page.screenshot(path=str(Path(folder) / f"web-game-review-{size}.png"), full_page=True)
